/**
 * The model pages' frame, loaded lazily by the shell: the route (list, model page, create,
 * compare) is the default export.
 */
export { default } from './ModelsRoute';
