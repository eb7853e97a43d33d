/** Width used when stdout is not a terminal (a pipe, a file, CI logs); apart from the renderer so that `--help` can name it without loading cli-table3. */
export const DEFAULT_COLUMNS = 100;
