/** The model page's effects tab (issue 27): partial dependence with ICE lines for the top inputs. */
export { EffectsTab } from './EffectsTab';
