import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './lib/i18n.ts';
import { Providers } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { installGlobalErrorLogging } from './lib/error-log.ts';
import './styles.css';

installGlobalErrorLogging();
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
