// The jest environment of the console's component tests: jsdom, plus the fetch-era globals that
// jsdom (jest-environment-jsdom 29) leaves out and react-router's data router needs (Request,
// Response, Headers, the encoders, streams). Node's AbortController replaces jsdom's, because
// Node's Request accepts only Node's AbortSignal.
const { TestEnvironment } = require('jest-environment-jsdom');

class ConsoleEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    Object.assign(this.global, {
      Request,
      Response,
      Headers,
      FormData,
      AbortController,
      AbortSignal,
      TextEncoder,
      TextDecoder,
      ReadableStream,
      WritableStream,
      TransformStream,
      structuredClone,
    });
  }
}

module.exports = ConsoleEnvironment;
