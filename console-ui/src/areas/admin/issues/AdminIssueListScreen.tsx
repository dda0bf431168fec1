import { useMessages } from '../../../i18n/messages';
import { AdminIssueList } from './AdminIssueList';

/** The staff issue list (/admin/issues). */
export function AdminIssueListScreen() {
  const t = useMessages();
  return (
    <section>
      <h1>{t('issues.title')}</h1>
      <AdminIssueList />
    </section>
  );
}
