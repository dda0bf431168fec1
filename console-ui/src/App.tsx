import { ApolloProvider } from '@apollo/client/react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import { ConfirmProvider } from './components/ConfirmDialog';
import { SnackbarProvider } from './components/Snackbars';
import { MessagesProvider } from './i18n/messages';
import { ConsoleServicesProvider, type ConsoleServices } from './shell/console-services';
import { GlobalStyle } from './theme/GlobalStyle';
import { theme } from './theme/theme';

export type ConsoleRouter = ReturnType<typeof createBrowserRouter>;

/** The console: theme, texts, the shared services, snackbars and confirmations around the router. */
export function App({ services, router }: { services: ConsoleServices; router: ConsoleRouter }) {
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <ConsoleServicesProvider services={services}>
        <ApolloProvider client={services.apollo}>
          <MessagesProvider store={services.messages}>
            <SnackbarProvider>
              <ConfirmProvider>
                <RouterProvider router={router} />
              </ConfirmProvider>
            </SnackbarProvider>
          </MessagesProvider>
        </ApolloProvider>
      </ConsoleServicesProvider>
    </ThemeProvider>
  );
}
