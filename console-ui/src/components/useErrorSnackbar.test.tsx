import { act, screen } from '@testing-library/react';
import { ApiError } from '../api/api-error';
import { renderWithProviders } from '../test-support/render';
import { useErrorSnackbar } from './useErrorSnackbar';

function Expose({ into }: { into: (show: (error: unknown) => void) => void }) {
  into(useErrorSnackbar());
  return null;
}

function setUp(): { show: (error: unknown) => void } {
  const holder = { show: (_error: unknown) => undefined as void };
  renderWithProviders(<Expose into={(show) => (holder.show = show)} />);
  return holder;
}

describe('showing a failed call', () => {
  it('shows the snackbar of the error', () => {
    const holder = setUp();
    act(() => holder.show(new ApiError('forbidden', 403, 'forbidden')));
    expect(screen.getByRole('status')).toHaveTextContent('You do not have permission to do this.');
  });

  it('ignores a cancelled call and leaves a session failure to the session', () => {
    const holder = setUp();
    act(() => {
      holder.show(new ApiError('cancelled', 0, null));
      holder.show(new ApiError('unauthorized', 401, 'jwt_expired'));
    });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the unknown-error message for anything else and throws it on', () => {
    const holder = setUp();
    const bug = new TypeError('x is undefined');
    act(() => {
      expect(() => holder.show(bug)).toThrow(bug);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Something unexpected went wrong (unknown error).');
  });
});
