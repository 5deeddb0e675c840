import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { App } from './App';

/**
 * The page's CSP allows style elements only with this answer's nonce (and no inline script at
 * all): emotion (react-admin's styles) and FullCalendar read it from the meta element.
 */
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? undefined;
const cache = createCache({ key: 'cal', nonce, prepend: true });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CacheProvider value={cache}>
      <App />
    </CacheProvider>
  </StrictMode>,
);
