"""Writes src/execution/sqlite-functions-<version>.ts: the SQL functions (name, number of arguments)
of the SQLite that this Python's sqlite3 links, as PRAGMA function_list gives them. sqlboard's
--sqlite-compat refuses the functions its own SQLite has beyond such a list (docs/sqlite.md).
Recorded from Python 3.11.7's sqlite3, SQLite 3.40.1 (Debian 12), the official evaluators' environment."""
import os, sqlite3, sys

conn = sqlite3.connect(':memory:')
rows = sorted(set(conn.execute('SELECT name, narg FROM pragma_function_list').fetchall()))
version = sqlite3.sqlite_version
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'execution', f'sqlite-functions-{version}.ts')
with open(out, 'w') as f:
    f.write(f'// Written by scripts/record-sqlite-functions.py from Python {sys.version.split()[0]}\'s sqlite3 (SQLite {version}); do not edit.\n')
    f.write(f'/** The SQL functions of SQLite {version} as built for Python {sys.version.split()[0]}: [name, number of arguments (-1: any)]. */\n')
    f.write(f'export const SQLITE_{version.replace(".", "_")}_FUNCTIONS: readonly (readonly [string, number])[] = [\n')
    for name, narg in rows:
        f.write(f"  ['{name}', {narg}],\n")
    f.write('];\n')
print(out, len(rows))
