import { useMessages, type MessageKey } from '../i18n/messages';

/** A screen of the route table that is not built yet: its title and a note. */
export function ComingSoon({ title }: { title: MessageKey }) {
  const t = useMessages();
  return (
    <section>
      <h1>{t(title)}</h1>
      <p>{t('comingSoon')}</p>
    </section>
  );
}
