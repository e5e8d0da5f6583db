/** The What-if tab: one input swept in one batch request, charted with its interval. */
export { WhatIfTab } from './WhatIfTab';
