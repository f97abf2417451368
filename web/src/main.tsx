import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { installGlobalErrorLogging } from './lib/error-log.ts';
import { i18nReady } from './lib/i18n.ts';
import './styles.css';

installGlobalErrorLogging();
// A user who chose en or es gets the page in it from the first paint.
void i18nReady.then(() => {
  const router = createRouter();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
