import { GridportError } from '../../contracts/errors';
import { parseFormBody } from './form-bodies';

describe('URL-encoded form bodies', () => {
  it('decode percent-escapes and plus signs into single values', () => {
    expect(parseFormBody('SAMLResponse=PHNhbWw%2BPC9zYW1sPg%3D%3D&RelayState=%2Fadmin%2Fdevices+x&empty=&flag')).toEqual({
      SAMLResponse: 'PHNhbWw+PC9zYW1sPg==',
      RelayState: '/admin/devices x',
      empty: '',
      flag: '',
    });
  });

  it('keep hostile field names as fields, never as the prototype', () => {
    const fields = parseFormBody('__proto__=x&constructor=y&CallSid=CA1');
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.entries(fields)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['CallSid', 'CA1'],
    ]);
  });

  it('refuse a bad percent-escape or a repeated field with url_encoded_body_invalid', () => {
    for (const [body, reason] of [
      ['SAMLResponse=%E0%A4%A', 'a field is not correctly percent-encoded'],
      ['SAMLResponse=a&SAMLResponse=b', 'the field SAMLResponse is repeated'],
    ] as [string, string][]) {
      let thrown: unknown;
      try {
        parseFormBody(body);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(GridportError);
      expect((thrown as GridportError).toBody()).toEqual({ key: 'url_encoded_body_invalid', details: { reason } });
    }
  });
});
