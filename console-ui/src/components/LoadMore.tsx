import styled from 'styled-components';
import { useMessages } from '../i18n/messages';
import { Button } from './Button';

/** The button under a paged list that loads its next page (a timeline, a history). */
export function LoadMore({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  const t = useMessages();
  return (
    <Bar>
      <Button variant="text" loading={loading} onClick={onClick}>
        {t('timeline.loadMore')}
      </Button>
    </Bar>
  );
}

const Bar = styled.div`
  display: flex;
  justify-content: center;
  margin: 8px 0;
`;
