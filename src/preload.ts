/**
 * A second entry of index.html: starts loading the SQL editor (Monaco, the largest part of the
 * first screen) while the shell's modules load, instead of after the shell has rendered. The shell
 * imports the same module lazily and gets this load. Only when the page opens on the SQL
 * workspace: a link to a model page does not show the editor, and Monaco (3.4 MB) would cost it
 * about as much CPU as the page itself; the editor loads when the SQL view is opened.
 */
import { decodeHash } from './app/url-state';

if (decodeHash(location.hash).view === 'sql') void import('./features/sql-editor/SqlEditor');
