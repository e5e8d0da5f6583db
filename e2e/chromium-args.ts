/**
 * The flags every Chromium this project launches gets (the e2e lane's, playwright.config.ts; the
 * UI benches', bench/ui.ts and bench/dev-start.ts): no sandbox (CI containers run as root), and none of the background
 * work that reaches for a network this machine does not have; no GPU (software rendering only).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-gpu',
];
