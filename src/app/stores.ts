/** The app's client-state stores (created once per page). */
import { createHistoryStore } from '../features/history/history-store';
import { createTabStore } from '../features/tabs/tab-store';
import { createPresentationStore } from './presentation';
import { createThemeStore } from './theme';

export const tabStore = createTabStore();
export const historyStore = createHistoryStore();
export const themeStore = createThemeStore();
export const presentationStore = createPresentationStore();
