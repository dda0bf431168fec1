import { useField } from 'formik';
import { useId, useMemo, useState, type ChangeEvent } from 'react';
import styled from 'styled-components';
import { uploadLimitBytes } from '../../../contracts/file';
import { Button } from '../components/Button';
import { useSnackbar } from '../components/Snackbars';
import { useErrorSnackbar } from '../components/useErrorSnackbar';
import { useMessages } from '../i18n/messages';
import { useSession } from '../session/useSession';
import { useConsoleServices } from '../shell/console-services';
import { fileApi, readAsDataUrl } from './file-api';

interface Attached {
  fileIdentifier: string;
  name: string;
  url: string;
}

const megabyte = 1024 * 1024;

/**
 * The attach control of a message form (a formik field of file identifiers): each chosen file is
 * uploaded at once, and the message names it when it is sent. Only roles with an upload limit
 * see it (console.md section 6: customers' limit is 0).
 */
export function FileAttachments({ name = 'fileIdentifiers' }: { name?: string }) {
  const t = useMessages();
  const id = useId();
  const { rest } = useConsoleServices();
  const api = useMemo(() => fileApi(rest), [rest]);
  const { profile } = useSession();
  const snackbar = useSnackbar();
  const showError = useErrorSnackbar();
  const [field, , helpers] = useField<string[]>(name);
  const [attached, setAttached] = useState<readonly Attached[]>([]);
  const [uploading, setUploading] = useState<string | null>(null);
  const limit = uploadLimitBytes(profile?.user.rights ?? []);
  const identifiers = field.value;
  // A form reset empties the field: what was attached goes with it.
  const shown = attached.filter((file) => identifiers.includes(file.fileIdentifier));
  if (limit === 0) {
    return null;
  }

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    let added = [...identifiers];
    for (const file of files) {
      if (file.size > limit) {
        snackbar.show({ tone: 'error', message: t('issue.message.fileTooLarge', { name: file.name, limit: limit / megabyte }) });
        continue;
      }
      setUploading(file.name);
      try {
        const uploaded = await api.upload({ dataUrl: await readAsDataUrl(file), name: file.name });
        setAttached((current) => [...current, { fileIdentifier: uploaded.fileIdentifier, name: file.name, url: uploaded.url }]);
        added = [...added, uploaded.fileIdentifier];
        await helpers.setValue(added);
      } catch (error) {
        showError(error);
      } finally {
        setUploading(null);
      }
    }
  };

  return (
    <Attachments>
      {shown.length > 0 && (
        <ul aria-label={t('issue.message.files')}>
          {shown.map((file) => (
            <li key={file.fileIdentifier}>
              <a href={file.url} target="_blank" rel="noreferrer">
                {file.name}
              </a>
              <Button
                variant="text"
                aria-label={t('issue.message.removeFile', { name: file.name })}
                onClick={() => void helpers.setValue(identifiers.filter((identifier) => identifier !== file.fileIdentifier))}
              >
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={id}>{uploading === null ? t('issue.message.attach') : t('issue.message.uploading', { name: uploading })}</label>
      <input id={id} type="file" multiple disabled={uploading !== null} onChange={(event) => void upload(event)} />
    </Attachments>
  );
}

const Attachments = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 12px;
  font-size: 14px;
  ul {
    margin: 0;
    padding-left: 18px;
  }
  li {
    display: flex;
    align-items: center;
    gap: 4px;
  }
`;
