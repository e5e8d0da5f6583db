/**
 * A second entry of index.html: starts loading the SQL editor (Monaco, the largest part of the
 * first screen) while the shell's modules load, instead of after the shell has rendered. The shell
 * imports the same module lazily and gets this load.
 */
void import('./features/sql-editor/SqlEditor');
