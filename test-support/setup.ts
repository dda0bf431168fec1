import 'reflect-metadata';
import { stopRequestScopes } from '../server/request-context';

// Each test file has its own copy of the request scope; the process keeps it, and its cost on
// every promise, until it is turned off (server/request-context.ts).
afterAll(() => stopRequestScopes());
