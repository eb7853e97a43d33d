# Builds native/dqs.c, the SQLite extension that turns double-quoted string literals on for the
# execution connections (src/execution/dqs.ts), at install (scripts/build-dqs.cjs). It compiles
# against the SQLite headers that better-sqlite3 ships for its own build from source, and calls
# SQLite only through the routines the loading connection hands it, so it fits any better-sqlite3
# binary, built here or prebuilt.
{
  'targets': [
    {
      'target_name': 'dqs',
      'type': 'loadable_module',
      'sources': ['native/dqs.c'],
      'include_dirs': [
        "<!(node -p \"require('path').join(require('path').dirname(require.resolve('better-sqlite3/package.json')), 'deps', 'sqlite3')\")",
      ],
    },
  ],
}
