// First: yup's console texts must be set before any schema is built.
import './forms/validation-texts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './App';
import { createConsoleServices } from './shell/console-services';
import { installGlobalErrorFilter } from './shell/global-errors';
import { consoleRoutes } from './shell/routes';

installGlobalErrorFilter(window);
const services = createConsoleServices({ builtVersion: __GRIDPORT_VERSION__ });
const router = createBrowserRouter(consoleRoutes(services));
const root = document.getElementById('root');
if (root === null) {
  throw new Error('index.html has no #root');
}
createRoot(root).render(
  <StrictMode>
    <App services={services} router={router} />
  </StrictMode>,
);
