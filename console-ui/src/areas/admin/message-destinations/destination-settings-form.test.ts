import { settingFieldsOf, settingsErrors, settingsFormValues, settingsOfForm } from './destination-settings-form';

describe('the settings form of a destination kind', () => {
  it('reads the fields of a kind from its schema: defaults, choices, lists and secrets', () => {
    const sftp = settingFieldsOf('sftp');
    expect(sftp.map((field) => field.name)).toEqual([
      'host',
      'port',
      'username',
      'password',
      'privateKey',
      'privateKeyPassphrase',
      'hostKey',
      'directory',
      'format',
    ]);
    expect(sftp.find((field) => field.name === 'port')).toMatchObject({ control: 'number', defaultValue: 22, min: 1, max: 65535, required: false });
    expect(sftp.find((field) => field.name === 'format')).toMatchObject({ control: 'select', options: ['synaptiq', 'qos'], required: true });
    expect(sftp.find((field) => field.name === 'password')).toMatchObject({ control: 'text', secret: true, multiline: false });
    expect(sftp.find((field) => field.name === 'privateKey')).toMatchObject({ control: 'text', secret: true, multiline: true });
    expect(sftp.find((field) => field.name === 'privateKeyPassphrase')).toMatchObject({ control: 'text', secret: true, multiline: false, required: false });
    expect(settingFieldsOf('kafka').find((field) => field.name === 'brokers')).toMatchObject({ control: 'list', min: 1, max: 20, required: true });
    expect(settingFieldsOf('http').find((field) => field.name === 'headers')).toMatchObject({
      control: 'records',
      itemFields: ['name', 'value'],
      secret: true,
    });
    expect(settingFieldsOf('influxdb').find((field) => field.name === 'apiVersion')).toMatchObject({ control: 'select', options: [1, 2], defaultValue: 1 });
    expect(settingFieldsOf('mysql').find((field) => field.name === 'tls')).toMatchObject({ control: 'boolean', defaultValue: false });
  });

  it('starts a new destination at the defaults and a saved one at its settings, secrets empty', () => {
    expect(settingsFormValues('postgres')).toEqual({
      host: '',
      port: '5432',
      database: '',
      username: '',
      password: '',
      table: 'gridport_reports',
      tls: false,
      tlsCaCertificate: '',
    });
    expect(settingsFormValues('kafka').brokers).toEqual(['']);
    expect(settingsFormValues('http', { type: 'http', url: 'https://hooks.example/in', method: 'PUT', timeoutMs: 5000 })).toEqual({
      url: 'https://hooks.example/in',
      method: 'PUT',
      headers: [],
      timeoutMs: '5000',
      tlsCaCertificate: '',
    });
  });

  it('sends numbers as numbers, leaves empty optional fields out, and keeps secrets left empty on a saved destination', () => {
    const values = { ...settingsFormValues('mysql'), host: 'db.example', port: '3307', database: 'fleet', username: 'gridport' };
    expect(settingsOfForm('mysql', values)).toEqual({
      type: 'mysql',
      host: 'db.example',
      port: 3307,
      database: 'fleet',
      username: 'gridport',
      table: 'gridport_reports',
      tls: false,
    });
    const http = { ...settingsFormValues('http'), url: 'https://hooks.example/in', headers: [{ name: ' ', value: '' }] };
    expect(settingsOfForm('http', http, ['headers'])).toEqual({ type: 'http', url: 'https://hooks.example/in', method: 'POST', timeoutMs: 10000 });
    const withHeader = { ...http, headers: [{ name: 'Authorization', value: 'Bearer t0ken' }] };
    expect(settingsOfForm('http', withHeader, ['headers']).headers).toEqual([{ name: 'Authorization', value: 'Bearer t0ken' }]);
    expect(settingsOfForm('influxdb', { ...settingsFormValues('influxdb'), apiVersion: '2' }).apiVersion).toBe(2);
  });

  it("checks the form by the kind's own schema, one message a setting under destination", () => {
    const kafka = { ...settingsFormValues('kafka'), topic: 'bad topic!', brokers: [''] };
    expect(settingsErrors('kafka', kafka)).toEqual({
      destination: { brokers: 'kafka needs at least 1 broker', topic: 'topic must be a Kafka topic name' },
    });
    const http = { ...settingsFormValues('http'), url: 'https://hooks.example', timeoutMs: '90000', headers: [{ name: 'Bad Name', value: 'x' }] };
    expect(settingsErrors('http', http)).toEqual({ destination: { timeoutMs: 'At most 60000', headers: 'headers[0].name must be an HTTP header name' } });
    // A required secret the server keeps passes empty; a new destination must give it.
    const bus = { ...settingsFormValues('azure-service-bus'), host: 'fleet.servicebus.example', entityPath: 'reports', sharedAccessKeyName: 'send' };
    expect(settingsErrors('azure-service-bus', bus, ['sharedAccessKey'])).toEqual({});
    expect(settingsErrors('azure-service-bus', bus)).toEqual({ destination: { sharedAccessKey: 'Required' } });
  });
});
