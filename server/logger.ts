import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on standard output (pino); secrets never reach them. */
export function createLogger(level: pino.LevelWithSilent, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'gridport' },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'], censor: '[hidden]' },
    },
    destination,
  );
}
