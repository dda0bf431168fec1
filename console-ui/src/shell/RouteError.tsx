import { useRouteError } from 'react-router-dom';
import styled from 'styled-components';
import { isApiError } from '../api/api-error';
import { snackbarForError } from '../api/error-snackbar';
import { Button } from '../components/Button';
import { useMessages } from '../i18n/messages';

/** What a screen shows when its route check or loading failed. */
export function RouteError() {
  const error = useRouteError();
  const t = useMessages();
  const message = (isApiError(error) ? snackbarForError(error, t)?.message : undefined) ?? t('error.unknown');
  return (
    <Centered role="alert">
      <p>{message}</p>
      <Button onClick={() => window.location.reload()}>{t('action.reload')}</Button>
    </Centered>
  );
}

const Centered = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 12px;
  padding: 64px 16px;
  text-align: center;
`;
