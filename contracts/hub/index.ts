/** The gateway protocol: envelope, limits and close codes, and the device-to-cloud reports (docs/gateway-protocol.md). */
export * from './protocol';
export * from './reports';
