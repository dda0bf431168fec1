/**
 * An OPC XML-DA 1.01 server for tests (OPC Foundation XML-DA specification 1.01 and its WSDL),
 * speaking SOAP 1.1 over HTTP on a local port: GetStatus, Browse (with MaxElementsReturned and
 * continuation points), GetProperties, Read and Write over an address space of items named by
 * path ("Park/Turbine1/ActivePower"); the branches are the paths' prefixes. Items are readable,
 * some writable; unknown items, writes to read-only items and values of the wrong type are
 * answered with the specification's item errors (E_UNKNOWNITEMNAME, E_READONLY, E_BADTYPE), a
 * browse of an unknown branch and requests while the server is not running with SOAP faults.
 * A test can hold answers back (`stall`) to see the client's timeout.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Element } from '@xmldom/xmldom';
import {
  attribute,
  childElement,
  childElements,
  escapeXml,
  localPart,
  parseSoap,
  soapEnvelope,
  soapFault,
  textOf,
  xmlAttributes,
  xmlDaNamespace,
  xsiNamespace,
  type ServerStateName,
} from '../opc/soap';

export type OpcDataType = 'double' | 'float' | 'int' | 'boolean' | 'string';
export type OpcValue = number | boolean | string;

/** One item of the address space. */
export interface OpcItem {
  dataType: OpcDataType;
  /** The value, or a function giving it at each read (a live measurement). */
  value: OpcValue | (() => OpcValue);
  writable?: boolean;
  description?: string;
  engineeringUnits?: string;
  /** QualityField of the value (default good). */
  quality?: string;
}

export interface OpcXmlDaServerOptions {
  /** The items by full name. */
  items: Record<string, OpcItem>;
  /** What separates branch names in item names (default "/"). */
  separator?: string;
  /** Most elements a browse answers at once (then a continuation point); 0 or absent: all. */
  maxElementsReturned?: number;
  vendorInfo?: string;
  productVersion?: string;
  /** The path the server answers on (default /opc). */
  path?: string;
}

/** The OPC errors of XML-DA 1.01 section 3.1.9 this server uses, with its texts. */
const errorTexts = {
  E_UNKNOWNITEMNAME: 'The item name is not known in the server address space.',
  E_READONLY: 'The item is read-only and cannot be written.',
  E_BADTYPE: 'The value cannot be converted to the data type of the item.',
  E_INVALIDCONTINUATIONPOINT: 'The continuation point is not valid.',
  E_SERVERSTATE: 'The operation could not complete because the server is not running.',
} as const;
type OpcErrorId = keyof typeof errorTexts;

interface Node {
  item: OpcItem | undefined;
  children: Map<string, Node>;
}

function isoNow(): string {
  return new Date().toISOString();
}

/** The value as the text of an xsd value of its type. */
function valueText(value: OpcValue): string {
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
}

/** Converts a written text to the item's type; undefined when it does not fit. */
function convert(text: string, dataType: OpcDataType): OpcValue | undefined {
  const trimmed = text.trim();
  switch (dataType) {
    case 'boolean':
      return trimmed === 'true' || trimmed === '1' ? true : trimmed === 'false' || trimmed === '0' ? false : undefined;
    case 'int': {
      const number = Number(trimmed);
      return trimmed !== '' && Number.isInteger(number) && number >= -2147483648 && number <= 2147483647 ? number : undefined;
    }
    case 'double':
    case 'float': {
      const number = Number(trimmed);
      return trimmed !== '' && Number.isFinite(number) ? number : undefined;
    }
    case 'string':
      return text;
  }
}

export class OpcXmlDaServer {
  private server: Server | null = null;
  private readonly root: Node = { item: undefined, children: new Map() };
  private readonly separator: string;
  private readonly startTime = isoNow();
  private held: ServerResponse[] = [];
  /** The operations received, in order (a test sees what the client asked). */
  readonly operations: string[] = [];
  /** ServerState of every reply; anything but running (or test) faults the data operations with E_SERVERSTATE. */
  state: ServerStateName = 'running';
  /** While true, requests are taken and never answered (until close). */
  stall = false;

  constructor(private readonly options: OpcXmlDaServerOptions) {
    this.separator = options.separator ?? '/';
    for (const [name, item] of Object.entries(options.items)) {
      this.nodeAt(name, true).item = item;
    }
  }

  /** The server's endpoint, for a url connection. */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    return `http://127.0.0.1:${address?.port ?? 0}${this.options.path ?? '/opc'}`;
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => void this.handle(request, response));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    for (const response of this.held) {
      response.destroy();
    }
    this.held = [];
    const server = this.server;
    this.server = null;
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  }

  /** An item's value now. */
  value(name: string): OpcValue | undefined {
    const item = this.nodeAt(name, false)?.item;
    return item === undefined ? undefined : typeof item.value === 'function' ? item.value() : item.value;
  }

  private nodeAt(name: string, create: true): Node;
  private nodeAt(name: string, create: false): Node | undefined;
  private nodeAt(name: string, create: boolean): Node | undefined {
    let node = this.root;
    if (name === '') {
      return node;
    }
    for (const part of name.split(this.separator)) {
      let child = node.children.get(part);
      if (child === undefined) {
        if (!create) {
          return undefined;
        }
        child = { item: undefined, children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    }
    return node;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) {
      chunks.push(chunk as Buffer);
    }
    if (this.stall) {
      this.held.push(response);
      return;
    }
    if (request.method !== 'POST' || request.url !== (this.options.path ?? '/opc')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const send = (status: number, xml: string) => response.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(xml);
    let body: Element;
    try {
      const message = parseSoap(Buffer.concat(chunks).toString('utf8'));
      if ('fault' in message) {
        send(500, soapFault('soap:Client', 'A fault is not a request.'));
        return;
      }
      body = message.body;
    } catch (error) {
      send(500, soapFault('soap:Client', error instanceof Error ? error.message : String(error)));
      return;
    }
    const localName = body.localName ?? body.tagName;
    const operation = body.namespaceURI === xmlDaNamespace ? localName : `{${body.namespaceURI ?? ''}}${localName}`;
    this.operations.push(operation);
    const answer = this.answer(operation, body);
    send(answer.fault ? 500 : 200, answer.xml);
  }

  private answer(operation: string, body: Element): { xml: string; fault: boolean } {
    if (operation === 'GetStatus') {
      return { xml: soapEnvelope(this.getStatus(body)), fault: false };
    }
    if (!['Browse', 'GetProperties', 'Read', 'Write'].includes(operation)) {
      return { xml: soapFault('soap:Client', `The operation ${operation} is not supported by this server.`), fault: true };
    }
    if (this.state !== 'running' && this.state !== 'test') {
      return { xml: soapFault('opc:E_SERVERSTATE', `${errorTexts.E_SERVERSTATE} (${this.state})`), fault: true };
    }
    if (operation === 'Browse') {
      return this.browse(body);
    }
    const xml = operation === 'GetProperties' ? this.getProperties(body) : operation === 'Read' ? this.read(body) : this.write(body);
    return { xml: soapEnvelope(xml), fault: false };
  }

  private replyBase(name: string, handle: string | undefined, received: string): string {
    return `<${name}${xmlAttributes({ RcvTime: received, ReplyTime: isoNow(), ClientRequestHandle: handle, ServerState: this.state })}/>`;
  }

  private errors(used: Set<OpcErrorId>, withText: boolean): string {
    return [...used].map((id) => `<Errors ID="opc:${id}">${withText ? `<Text>${escapeXml(errorTexts[id])}</Text>` : ''}</Errors>`).join('');
  }

  private getStatus(body: Element): string {
    const received = isoNow();
    const status =
      `<Status${xmlAttributes({ StartTime: this.startTime, ProductVersion: this.options.productVersion ?? '1.0.0' })}>` +
      `<StatusInfo>${escapeXml(this.state)}</StatusInfo><VendorInfo>${escapeXml(this.options.vendorInfo ?? 'Gridport test OPC XML-DA server')}</VendorInfo>` +
      '<SupportedLocaleIDs>en-us</SupportedLocaleIDs><SupportedInterfaceVersions>XML_DA_Version_1_0</SupportedInterfaceVersions></Status>';
    return `<GetStatusResponse xmlns="${xmlDaNamespace}" xmlns:opc="${xmlDaNamespace}">${this.replyBase('GetStatusResult', attribute(body, 'ClientRequestHandle'), received)}${status}</GetStatusResponse>`;
  }

  private browse(body: Element): { xml: string; fault: boolean } {
    const received = isoNow();
    const itemName = attribute(body, 'ItemName') ?? '';
    const node = this.nodeAt(itemName, false);
    if (node === undefined) {
      return { xml: soapFault('opc:E_UNKNOWNITEMNAME', `${errorTexts.E_UNKNOWNITEMNAME} (${itemName})`), fault: true };
    }
    const filter = attribute(body, 'BrowseFilter') ?? 'all';
    const children = [...node.children].filter(([, child]) =>
      filter === 'item' ? child.item !== undefined : filter === 'branch' ? child.children.size > 0 : true,
    );
    let start = 0;
    const continuation = attribute(body, 'ContinuationPoint');
    if (continuation) {
      const [forItem, offset] = Buffer.from(continuation, 'base64').toString('utf8').split('\u0000');
      start = Number(offset);
      if (forItem !== itemName || !Number.isInteger(start) || start < 0 || start > children.length) {
        return { xml: soapFault('opc:E_INVALIDCONTINUATIONPOINT', errorTexts.E_INVALIDCONTINUATIONPOINT), fault: true };
      }
    }
    const limits = [Number(attribute(body, 'MaxElementsReturned') ?? 0), this.options.maxElementsReturned ?? 0].filter((limit) => limit > 0);
    const end = limits.length === 0 ? children.length : Math.min(children.length, start + Math.min(...limits));
    const elements = children
      .slice(start, end)
      .map(
        ([name, child]) =>
          `<Elements${xmlAttributes({
            Name: name,
            ItemName: itemName === '' ? name : `${itemName}${this.separator}${name}`,
            IsItem: child.item !== undefined,
            HasChildren: child.children.size > 0,
          })}/>`,
      )
      .join('');
    const more = end < children.length;
    const next = more ? Buffer.from(`${itemName}\u0000${end}`, 'utf8').toString('base64') : undefined;
    const xml = soapEnvelope(
      `<BrowseResponse xmlns="${xmlDaNamespace}" xmlns:opc="${xmlDaNamespace}"${xmlAttributes({ ContinuationPoint: next, MoreElements: more })}>` +
        `${this.replyBase('BrowseResult', attribute(body, 'ClientRequestHandle'), received)}${elements}</BrowseResponse>`,
    );
    return { xml, fault: false };
  }

  /** The properties of an item (XML-DA 1.01 section 3.2: dataType, value, quality, timestamp, accessRights, description, engineeringUnits). */
  private properties(item: OpcItem): [string, string, string, string][] {
    const value = typeof item.value === 'function' ? item.value() : item.value;
    const properties: [string, string, string, string][] = [
      ['dataType', 'Item Canonical DataType', 'QName', `xsd:${item.dataType}`],
      ['value', 'Item Value', item.dataType, valueText(value)],
      ['quality', 'Item Quality', 'string', item.quality ?? 'good'],
      ['timestamp', 'Item Timestamp', 'dateTime', isoNow()],
      ['accessRights', 'Item Access Rights', 'string', item.writable ? 'readWritable' : 'readable'],
    ];
    if (item.description !== undefined) {
      properties.push(['description', 'Item Description', 'string', item.description]);
    }
    if (item.engineeringUnits !== undefined) {
      properties.push(['engineeringUnits', 'EU Units', 'string', item.engineeringUnits]);
    }
    return properties;
  }

  private getProperties(body: Element): string {
    const received = isoNow();
    const withValues = attribute(body, 'ReturnPropertyValues') === 'true';
    const wanted = new Set(childElements(body, 'PropertyNames').map((name) => localPart(textOf(name).trim())));
    const all = attribute(body, 'ReturnAllProperties') === 'true';
    const used = new Set<OpcErrorId>();
    const lists = childElements(body, 'ItemIDs')
      .map((id) => {
        const name = attribute(id, 'ItemName') ?? '';
        const item = this.nodeAt(name, false)?.item;
        if (item === undefined) {
          used.add('E_UNKNOWNITEMNAME');
          return `<PropertyLists${xmlAttributes({ ItemName: name, ResultID: 'opc:E_UNKNOWNITEMNAME' })}/>`;
        }
        const properties = this.properties(item)
          .filter(([property]) => all || wanted.has(property))
          .map(
            ([property, description, type, text]) =>
              `<Properties${xmlAttributes({ Name: property, Description: description, ItemName: name })}>` +
              `${withValues ? `<Value xsi:type="xsd:${type}">${escapeXml(text)}</Value>` : ''}</Properties>`,
          )
          .join('');
        return `<PropertyLists${xmlAttributes({ ItemName: name })}>${properties}</PropertyLists>`;
      })
      .join('');
    return (
      `<GetPropertiesResponse xmlns="${xmlDaNamespace}" xmlns:opc="${xmlDaNamespace}">${this.replyBase('GetPropertiesResult', attribute(body, 'ClientRequestHandle'), received)}` +
      `${lists}${this.errors(used, attribute(body, 'ReturnErrorText') !== 'false')}</GetPropertiesResponse>`
    );
  }

  /** An RItemList item: the value and quality, or the error. */
  private itemValue(name: string, item: OpcItem | undefined, error: OpcErrorId | undefined, options: Element | undefined): string {
    const attributes = xmlAttributes({
      ItemName: options === undefined || attribute(options, 'ReturnItemName') === 'true' ? name : undefined,
      Timestamp: options !== undefined && attribute(options, 'ReturnItemTime') === 'true' && item !== undefined ? isoNow() : undefined,
      ResultID: error === undefined ? undefined : `opc:${error}`,
    });
    if (item === undefined || error === 'E_UNKNOWNITEMNAME') {
      return `<Items${attributes}/>`;
    }
    const value = typeof item.value === 'function' ? item.value() : item.value;
    const quality = item.quality === undefined || item.quality === 'good' ? '' : `<Quality QualityField="${escapeXml(item.quality)}"/>`;
    return `<Items${attributes}><Value xsi:type="xsd:${item.dataType}">${escapeXml(valueText(value))}</Value>${quality}</Items>`;
  }

  private read(body: Element): string {
    const received = isoNow();
    const options = childElement(body, 'Options');
    const list = childElement(body, 'ItemList');
    const used = new Set<OpcErrorId>();
    const items = (list === undefined ? [] : childElements(list, 'Items'))
      .map((entry) => {
        const name = attribute(entry, 'ItemName') ?? '';
        const item = this.nodeAt(name, false)?.item;
        if (item === undefined) {
          used.add('E_UNKNOWNITEMNAME');
        }
        return this.itemValue(name, item, item === undefined ? 'E_UNKNOWNITEMNAME' : undefined, options);
      })
      .join('');
    return (
      `<ReadResponse xmlns="${xmlDaNamespace}" xmlns:opc="${xmlDaNamespace}">${this.replyBase('ReadResult', options && attribute(options, 'ClientRequestHandle'), received)}` +
      `<RItemList>${items}</RItemList>${this.errors(used, options === undefined || attribute(options, 'ReturnErrorText') !== 'false')}</ReadResponse>`
    );
  }

  private write(body: Element): string {
    const received = isoNow();
    const options = childElement(body, 'Options');
    const list = childElement(body, 'ItemList');
    const returnValues = attribute(body, 'ReturnValuesOnReply') === 'true';
    const used = new Set<OpcErrorId>();
    const items = (list === undefined ? [] : childElements(list, 'Items'))
      .map((entry) => {
        const name = attribute(entry, 'ItemName') ?? '';
        const item = this.nodeAt(name, false)?.item;
        const valueElement = childElement(entry, 'Value');
        let error: OpcErrorId | undefined;
        if (item === undefined) {
          error = 'E_UNKNOWNITEMNAME';
        } else if (!item.writable) {
          error = 'E_READONLY';
        } else {
          const isNil = valueElement?.getAttributeNS(xsiNamespace, 'nil') === 'true';
          const converted = valueElement === undefined || isNil ? undefined : convert(textOf(valueElement), item.dataType);
          if (converted === undefined) {
            error = 'E_BADTYPE';
          } else {
            item.value = converted;
          }
        }
        if (error !== undefined) {
          used.add(error);
        }
        return returnValues || error !== undefined ? this.itemValue(name, item, error, options) : `<Items${xmlAttributes({ ItemName: name })}/>`;
      })
      .join('');
    return (
      `<WriteResponse xmlns="${xmlDaNamespace}" xmlns:opc="${xmlDaNamespace}">${this.replyBase('WriteResult', options && attribute(options, 'ClientRequestHandle'), received)}` +
      `<RItemList>${items}</RItemList>${this.errors(used, options === undefined || attribute(options, 'ReturnErrorText') !== 'false')}</WriteResponse>`
    );
  }
}

/** Starts a server over the items. */
export function startOpcXmlDaServer(options: OpcXmlDaServerOptions): Promise<OpcXmlDaServer> {
  return new OpcXmlDaServer(options).start();
}
