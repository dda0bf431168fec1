/**
 * An OPC XML-DA 1.01 client (OPC Foundation XML-DA specification 1.01 and its WSDL): GetStatus,
 * Browse, GetProperties, Read and Write over SOAP 1.1 on HTTP(S). One request at a time, each
 * within its timeout (the whole exchange: connect, send, answer). A request that fails as a
 * whole throws an OpcRequestError named as the request outcome counters of device-model.md
 * section 3.9; an item the server refuses (an OPC error such as E_UNKNOWNITEMNAME) comes back
 * on the item with its ResultID and the server's error text.
 */
import type { Element } from '@xmldom/xmldom';
import type { ConnectionStatistics } from '../../contracts/hub/reports';
import {
  attribute,
  childElement,
  childElements,
  escapeXml,
  localPart,
  parseSoap,
  soapAction,
  soapEnvelope,
  SoapFormatError,
  textOf,
  xmlAttributes,
  xmlDaNamespace,
  type XmlDaOperation,
} from './soap';

/** Why a request failed as a whole, named as the request outcome counters (device-model.md section 3.9). */
export type OpcFailure = Exclude<keyof ConnectionStatistics, 'success' | 'queueFull' | 'notReady'>;

export class OpcRequestError extends Error {
  constructor(
    readonly failure: OpcFailure,
    message: string,
    /** The OPC error or SOAP fault code the server answered with (E_SERVERSTATE, soap:Client, ...). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface ServerStatus {
  serverState: string;
  startTime: string;
  productVersion: string | null;
  statusInfo: string | null;
  vendorInfo: string | null;
  supportedLocaleIds: string[];
  supportedInterfaceVersions: string[];
}

/** One element of a browse: a branch, an item, or an item with children. */
export interface BrowseElement {
  name: string;
  itemName: string;
  itemPath: string | null;
  isItem: boolean;
  hasChildren: boolean;
}

/** An OPC error on one item or property: its ResultID and the server's text for it, when it sent one. */
export interface OpcItemError {
  resultId: string;
  text: string | null;
}

/** A value as the server typed it (xsi:type, local part) and as text; arrays as a JSON list of their elements' texts. */
export interface TypedValue {
  type: string | null;
  text: string;
}

export interface ItemValue {
  itemName: string;
  value: TypedValue | null;
  /** QualityField (good, bad, uncertain and their kinds), with LimitField when it is not none. */
  quality: string;
  timestamp: string | null;
  error: OpcItemError | null;
}

export interface ItemProperty {
  itemName: string;
  /** The property's name, local part (dataType, value, quality, accessRights, engineeringUnits, ...). */
  name: string;
  description: string | null;
  value: TypedValue | null;
  error: OpcItemError | null;
}

/** A value to write, as the XML Schema type it is sent as. */
export interface WriteValue {
  itemName: string;
  xsdType: 'boolean' | 'int' | 'long' | 'double' | 'string';
  text: string;
}

export interface OpcXmlDaClientOptions {
  /** The server's endpoint (the url connection). */
  url: string;
  /** ms one request may take, connect to last byte of the answer. */
  timeoutMs: number;
  /** LocaleID sent with each request (RFC 3066); the server's default when absent. */
  localeId?: string;
  /** Browse elements gathered over continuation points at most; the rest is reported as left out. */
  maxBrowseElements?: number;
}

/** Answers larger than this are refused (a runaway server, not a real address space). */
const maxAnswerBytes = 16 * 1024 * 1024;

/**
 * Faults that say the request was wrong (soap:Client; OPC errors about what was asked), counted
 * as invalidRequest; any other fault (soap:Server, E_SERVERSTATE, E_FAIL, E_BUSY, ...) is the
 * server's, counted as responseError.
 */
const requestFaults = new Set(['Client', 'E_UNKNOWNITEMNAME', 'E_UNKNOWNITEMPATH', 'E_BADTYPE', 'E_READONLY', 'E_WRITEONLY', 'E_RANGE', 'E_NOTSUPPORTED']);

const successCodes = new Set(['S_OK', 'S_CLAMP', 'S_UNSUPPORTEDRATE', 'S_DATAQUEUEOVERFLOW']);

function isError(resultId: string | undefined): resultId is string {
  return resultId !== undefined && resultId !== '' && !successCodes.has(localPart(resultId)) && !localPart(resultId).startsWith('S_');
}

function flag(element: Element, name: string): boolean {
  return attribute(element, name) === 'true' || attribute(element, name) === '1';
}

/** The value of a <Value> element: its xsi:type's local part and its text (an ArrayOf... type: JSON of its elements' texts). */
function valueOf(element: Element | undefined): TypedValue | null {
  if (element === undefined) {
    return null;
  }
  const typeName = element.getAttributeNS('http://www.w3.org/2001/XMLSchema-instance', 'type');
  const type = typeName ? localPart(typeName) : null;
  if (type !== null && type.startsWith('ArrayOf')) {
    return { type, text: JSON.stringify(childElements(element).map((entry) => textOf(entry))) };
  }
  if (element.getAttributeNS('http://www.w3.org/2001/XMLSchema-instance', 'nil') === 'true') {
    return null;
  }
  return { type, text: textOf(element) };
}

function qualityOf(element: Element | undefined): string {
  // QualityField and LimitField default to good and none (the WSDL's OPCQuality).
  const quality = element === undefined ? 'good' : (attribute(element, 'QualityField') ?? 'good');
  const limit = element === undefined ? 'none' : (attribute(element, 'LimitField') ?? 'none');
  return limit === 'none' ? quality : `${quality} (limit ${limit})`;
}

/** The Errors of a reply by ID (local part): the text the server gives for each error it used. */
function errorTexts(reply: Element): Map<string, string> {
  return new Map(childElements(reply, 'Errors').map((error) => [localPart(attribute(error, 'ID') ?? ''), textOf(childElement(error, 'Text')).trim()] as const));
}

function itemError(resultId: string | undefined, texts: Map<string, string>): OpcItemError | null {
  if (!isError(resultId)) {
    return null;
  }
  const id = localPart(resultId);
  return { resultId: id, text: texts.get(id) || null };
}

function itemValues(reply: Element, texts: Map<string, string>): ItemValue[] {
  const list = childElement(reply, 'RItemList');
  return (list === undefined ? [] : childElements(list, 'Items')).map((item) => ({
    itemName: attribute(item, 'ItemName') ?? '',
    value: valueOf(childElement(item, 'Value')),
    quality: qualityOf(childElement(item, 'Quality')),
    timestamp: attribute(item, 'Timestamp') ?? null,
    error: itemError(attribute(item, 'ResultID'), texts),
  }));
}

/** The agent's error of a fetch that did not give an answer. */
function transportError(error: unknown, url: string, timeoutMs: number): OpcRequestError {
  if (error instanceof OpcRequestError) {
    return error;
  }
  const name = (error as { name?: unknown }).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new OpcRequestError('timeout', `no answer from ${url} within ${timeoutMs} ms`);
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === 'string' ? cause.code : String(cause?.message ?? (error as Error).message ?? error);
  return new OpcRequestError('connectionError', `${url} could not be reached: ${detail}`);
}

/** A client of one OPC XML-DA server (its url connection). */
export class OpcXmlDaClient {
  private requests = 0;

  constructor(private readonly options: OpcXmlDaClientOptions) {}

  /** Sends one operation and answers its response element; a fault, an HTTP error or a text that is not SOAP throws. */
  private async call(operation: XmlDaOperation, body: string): Promise<Element> {
    const { url, timeoutMs } = this.options;
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${soapAction(operation)}"` },
        body: soapEnvelope(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw transportError(error, url, timeoutMs);
    }
    if (text.length > maxAnswerBytes) {
      throw new OpcRequestError('responseError', `${operation}: an answer of ${text.length} characters, more than ${maxAnswerBytes}`);
    }
    let message;
    try {
      message = parseSoap(text);
    } catch (error) {
      const reason = error instanceof SoapFormatError ? error.message : String(error);
      throw new OpcRequestError('responseError', `${operation}: HTTP ${status} with an answer that is ${reason}`);
    }
    if ('fault' in message) {
      const code = localPart(message.fault.code);
      const failure: OpcFailure = requestFaults.has(code) || code.startsWith('E_INVALID') ? 'invalidRequest' : 'responseError';
      throw new OpcRequestError(failure, `${operation}: SOAP fault ${code}${message.fault.text ? `: ${message.fault.text}` : ''}`, code);
    }
    if (status !== 200) {
      throw new OpcRequestError('responseError', `${operation}: HTTP ${status}`);
    }
    if (message.body.localName !== `${operation}Response` || message.body.namespaceURI !== xmlDaNamespace) {
      throw new OpcRequestError('responseError', `${operation}: answered with ${message.body.tagName}, not ${operation}Response`);
    }
    return message.body;
  }

  /** LocaleID and ClientRequestHandle of a request. */
  private requestAttributes(): { LocaleID: string | undefined; ClientRequestHandle: string } {
    this.requests += 1;
    return { LocaleID: this.options.localeId, ClientRequestHandle: String(this.requests) };
  }

  /** RequestOptions of Read and Write: error texts, item names and times back, and the deadline of our timeout. */
  private requestOptions(): string {
    return `<Options${xmlAttributes({
      ReturnErrorText: true,
      ReturnItemTime: true,
      ReturnItemName: true,
      RequestDeadline: new Date(Date.now() + this.options.timeoutMs).toISOString(),
      ...this.requestAttributes(),
    })}/>`;
  }

  async getStatus(): Promise<ServerStatus> {
    const reply = await this.call('GetStatus', `<GetStatus xmlns="${xmlDaNamespace}"${xmlAttributes(this.requestAttributes())}/>`);
    const result = childElement(reply, 'GetStatusResult');
    const status = childElement(reply, 'Status');
    const optional = (name: string) => (status === undefined || childElement(status, name) === undefined ? null : textOf(childElement(status, name)));
    return {
      serverState: (result && attribute(result, 'ServerState')) ?? 'unknown',
      startTime: (status && attribute(status, 'StartTime')) ?? '',
      productVersion: (status && attribute(status, 'ProductVersion')) ?? null,
      statusInfo: optional('StatusInfo'),
      vendorInfo: optional('VendorInfo'),
      supportedLocaleIds: status === undefined ? [] : childElements(status, 'SupportedLocaleIDs').map((entry) => textOf(entry)),
      supportedInterfaceVersions: status === undefined ? [] : childElements(status, 'SupportedInterfaceVersions').map((entry) => textOf(entry)),
    };
  }

  /**
   * The children of `itemName` (the root when empty), following continuation points until the
   * server has no more or maxBrowseElements are gathered; `more` says some were left out.
   */
  async browse(itemName: string): Promise<{ elements: BrowseElement[]; more: boolean }> {
    const most = this.options.maxBrowseElements ?? Number.POSITIVE_INFINITY;
    const elements: BrowseElement[] = [];
    let continuation: string | undefined;
    for (;;) {
      const attributes = xmlAttributes({
        ...this.requestAttributes(),
        ItemName: itemName,
        ContinuationPoint: continuation,
        BrowseFilter: 'all',
        ReturnErrorText: true,
      });
      const reply = await this.call('Browse', `<Browse xmlns="${xmlDaNamespace}"${attributes}/>`);
      const page = childElements(reply, 'Elements');
      for (const element of page) {
        elements.push({
          name: attribute(element, 'Name') ?? '',
          itemName: attribute(element, 'ItemName') ?? attribute(element, 'Name') ?? '',
          itemPath: attribute(element, 'ItemPath') || null,
          isItem: flag(element, 'IsItem'),
          hasChildren: flag(element, 'HasChildren'),
        });
      }
      continuation = attribute(reply, 'ContinuationPoint') || undefined;
      const more = continuation !== undefined || flag(reply, 'MoreElements');
      if (!more) {
        return { elements, more: false };
      }
      // An empty page that still promises more would loop for ever: what came is what there is.
      if (elements.length >= most || continuation === undefined || page.length === 0) {
        // MoreElements without a continuation point: the server cannot hand out the rest (XML-DA 1.01 section 3.7).
        return { elements: elements.slice(0, most), more: true };
      }
    }
  }

  /** Every property of each item, with values. */
  async getProperties(itemNames: readonly string[]): Promise<ItemProperty[]> {
    const ids = itemNames.map((itemName) => `<ItemIDs${xmlAttributes({ ItemName: itemName })}/>`).join('');
    const attributes = xmlAttributes({ ...this.requestAttributes(), ReturnAllProperties: true, ReturnPropertyValues: true, ReturnErrorText: true });
    const reply = await this.call('GetProperties', `<GetProperties xmlns="${xmlDaNamespace}"${attributes}>${ids}</GetProperties>`);
    const texts = errorTexts(reply);
    const properties: ItemProperty[] = [];
    for (const list of childElements(reply, 'PropertyLists')) {
      const itemName = attribute(list, 'ItemName') ?? '';
      const listError = itemError(attribute(list, 'ResultID'), texts);
      if (listError !== null) {
        properties.push({ itemName, name: '', description: null, value: null, error: listError });
        continue;
      }
      for (const property of childElements(list, 'Properties')) {
        properties.push({
          itemName: attribute(property, 'ItemName') ?? itemName,
          name: localPart(attribute(property, 'Name') ?? ''),
          description: attribute(property, 'Description') ?? null,
          value: valueOf(childElement(property, 'Value')),
          error: itemError(attribute(property, 'ResultID'), texts),
        });
      }
    }
    return properties;
  }

  /** The current values of the items (MaxAge 0: read from the device, not a cache). */
  async read(itemNames: readonly string[]): Promise<ItemValue[]> {
    const items = itemNames.map((itemName) => `<Items${xmlAttributes({ ItemName: itemName })}/>`).join('');
    const reply = await this.call('Read', `<Read xmlns="${xmlDaNamespace}">${this.requestOptions()}<ItemList MaxAge="0">${items}</ItemList></Read>`);
    return itemValues(reply, errorTexts(reply));
  }

  /** Writes the values and answers what the server holds after (ReturnValuesOnReply). */
  async write(values: readonly WriteValue[]): Promise<ItemValue[]> {
    const items = values
      .map((value) => `<Items${xmlAttributes({ ItemName: value.itemName })}><Value xsi:type="xsd:${value.xsdType}">${escapeXml(value.text)}</Value></Items>`)
      .join('');
    const reply = await this.call(
      'Write',
      `<Write xmlns="${xmlDaNamespace}" ReturnValuesOnReply="true">${this.requestOptions()}<ItemList>${items}</ItemList></Write>`,
    );
    return itemValues(reply, errorTexts(reply));
  }
}
