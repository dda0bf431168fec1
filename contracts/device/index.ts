/** Device configuration v2, asset commands, parameters and cloud-to-device messages (device-model.md, api.md sections 3, 5). */
export * from './asset-types';
export * from './assets';
export * from './commands';
export * from './config';
export * from './connection';
export * from './control-loops';
export * from './examples';
export * from './time-window';
