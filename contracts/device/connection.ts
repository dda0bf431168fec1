import * as yup from 'yup';
import { integer, numberLimits } from '../numbers';
import { nonEmptyRecord, taggedUnion } from './time-window';

/** The serial ports of the gateway's RS485 interfaces (api.md section 5). */
export const rs485Paths = ['/dev/ttymxc0', '/dev/ttymxc1', '/dev/ttymxc3'] as const;
/** Baud rates an RS485 link may use (api.md section 5). */
export const baudRates = [1200, 2400, 4800, 9600, 14400, 19200, 28800, 38400, 57600, 76800, 115200] as const;
/** Parity settings (api.md section 5). */
export const parities = ['none', 'even', 'mark', 'odd', 'space'] as const;
/** The connection types (api.md section 3). */
export const connectionTypes = ['rs485', 'tcp', 'udp', 'url', 'none', 'multiple'] as const;
export type ConnectionType = (typeof connectionTypes)[number];

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A dotted IPv4 address (api.md section 5). */
export const ipv4Schema = yup.string().trim().matches(ipv4, '${path} must be an IPv4 address');
/** A TCP or UDP port, 0-65535 (api.md section 5). */
export const portSchema = integer().min(0).max(65535);

/**
 * RS485 link (api.md sections 3, 5). Not given by the spec, our defaults: 9600 baud, 8 data
 * bits, 1 stop bit, no parity (8N1 at 9600, the Modbus RTU setting most devices ship with).
 */
export const rs485ConnectionSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['rs485'] as const)
      .required(),
    path: yup.string().oneOf(rs485Paths).required(),
    baudRate: yup.number().oneOf(baudRates).default(9600),
    dataBits: integer().min(5).max(8).default(8),
    stopBits: yup
      .number()
      .oneOf([1, 2] as const)
      .default(1),
    parity: yup.string().oneOf(parities).default('none'),
    buffered: yup.boolean().default(true),
    enableTermination: yup.boolean().default(true),
  })
  .exact();

/**
 * Modbus TCP (api.md section 3). port defaults to 502, the Modbus TCP port. shared: other
 * assets use the same socket (a gateway in front of several units); rtuOverTcp: RTU framing
 * over the socket (serial-to-Ethernet converters).
 */
export const tcpConnectionSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['tcp'] as const)
      .required(),
    ip: ipv4Schema.required(),
    port: portSchema.default(502),
    shared: yup.boolean().optional(),
    rtuOverTcp: yup.boolean().optional(),
  })
  .exact();

/** UDP (api.md section 3); port defaults to 502 as for TCP. */
export const udpConnectionSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['udp'] as const)
      .required(),
    ip: ipv4Schema.required(),
    port: portSchema.default(502),
  })
  .exact();

/** An HTTP(S) endpoint, as OPC XML-DA and Vestas AP assets use (api.md section 3). */
export const urlConnectionSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['url'] as const)
      .required(),
    url: yup
      .string()
      .trim()
      .required()
      .matches(/^https?:\/\/[^\s/]+/, '${path} must be an http or https URL'),
  })
  .exact();

/** No link: demo assets and assets that the gateway reaches through another asset (api.md section 3). */
export const noConnectionSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['none'] as const)
      .required(),
  })
  .exact();

/** Any single connection, tagged by `type`. */
export const singleConnectionSchema = taggedUnion({
  rs485: rs485ConnectionSchema,
  tcp: tcpConnectionSchema,
  udp: udpConnectionSchema,
  url: urlConnectionSchema,
  none: noConnectionSchema,
});

/**
 * A default connection plus named extra connections (api.md section 3), for an asset whose
 * parts sit behind different links (for example a battery's BMS on RS485, its inverter on TCP).
 * The record of extra connections holds at least one.
 */
export const multipleConnectionSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['multiple'] as const)
      .required(),
    default: singleConnectionSchema,
    connections: nonEmptyRecord(singleConnectionSchema),
  })
  .exact();

/** An asset's communication: one of the connection types, tagged by `type` (api.md section 3). */
export const connectionSchema = taggedUnion({
  rs485: rs485ConnectionSchema,
  tcp: tcpConnectionSchema,
  udp: udpConnectionSchema,
  url: urlConnectionSchema,
  none: noConnectionSchema,
  multiple: multipleConnectionSchema,
});
export type Connection = yup.InferType<typeof connectionSchema>;

/** A Modbus unit id, 0-255 (api.md section 5). */
export const slaveIdSchema = integer().min(0).max(255);

/**
 * Device communication settings (api.md sections 3, 5): how the gateway reaches a Modbus device
 * for a one-off command (executeModbusCommand). slaveId is one id or a non-empty list of ids
 * to try; retries and delays (ms) are non-negative integers, timeout (ms) defaults to 1000.
 * Our defaults where the spec gives none: no retries, no delays, debug off.
 */
export const deviceCommunicationSchema = yup
  .object({
    identifier: yup.string().trim().min(1).max(100).optional(),
    slaveId: yup.lazy((value: unknown) => (Array.isArray(value) ? yup.array(slaveIdSchema.required()).min(1).required() : slaveIdSchema.optional())),
    retries: integer().min(0).max(100).default(0),
    timeout: integer().positive().max(numberLimits.durationMsMax).default(1000),
    pollDelay: integer().min(0).max(numberLimits.durationMsMax).default(0),
    turnaroundDelay: integer().min(0).max(numberLimits.durationMsMax).default(0),
    debugEnable: yup.boolean().default(false),
    communication: taggedUnion({ tcp: tcpConnectionSchema, rs485: rs485ConnectionSchema }),
  })
  .exact();
export type DeviceCommunication = yup.InferType<typeof deviceCommunicationSchema>;
