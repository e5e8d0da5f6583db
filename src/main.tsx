/** Entry point: opens a shared `#sql=` link, then renders the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createQueryClient, Providers } from './app/providers';
import { persistTabs } from './features/tabs/tab-store';
import { tabStore } from './app/stores';
import { openSqlFromHash } from './app/url-sync';
import './styles.css';
import './widgets.css';

openSqlFromHash(window.location.hash);
// Debounced writes could lose the last keystrokes on reload: flush when the page hides.
window.addEventListener('pagehide', () => persistTabs(tabStore.get()));
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') persistTabs(tabStore.get());
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers client={createQueryClient()}>
      <App />
    </Providers>
  </StrictMode>,
);
