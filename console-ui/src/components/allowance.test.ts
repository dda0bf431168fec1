import { MessagesStore } from '../i18n/messages';
import { allowanceNotice } from './allowance';

const store = new MessagesStore(async () => ({}));
const t = store.text.bind(store);

describe('the dangerous-action allowance notice', () => {
  it.each([
    [5_000_000, 'success', 'Saved. Remaining allowance for dangerous actions in the last 24 hours: 5 MW.'],
    [1_000_001, 'success', 'Saved. Remaining allowance for dangerous actions in the last 24 hours: 1 MW.'],
    [1_000_000, 'warning', 'Saved. Remaining allowance for dangerous actions in the last 24 hours: 1 MW.'],
    [250_000, 'warning', 'Saved. Remaining allowance for dangerous actions in the last 24 hours: 250 kW.'],
    [0, 'warning', 'Saved. Remaining allowance for dangerous actions in the last 24 hours: 0 W.'],
  ])('a remaining allowance of %p W is a %p: %p', (remaining, tone, message) => {
    expect(allowanceNotice(remaining, t)).toEqual({ tone, message });
  });

  it.each([null, undefined])('without a figure (%p) it is the save-success message', (remaining) => {
    expect(allowanceNotice(remaining, t)).toEqual({ tone: 'success', message: 'Saved.' });
  });
});
