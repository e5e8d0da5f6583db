/**
 * How the model pages are addressed: their views, tabs and URL parameters, and the navigation
 * callbacks the shell gives them. A room of its own, and a light one: the shell imports it into
 * every page's first load, where the shared room's charts (recharts) and tables (AG Grid) would
 * come along with it.
 */
export {
  asTab,
  asVersion,
  isModelsView,
  MODEL_TABS,
  type ModelsNav,
  type ModelsViewName,
  type ModelTab,
  type ModelTabProps,
  modelUrlParams,
} from './nav';
