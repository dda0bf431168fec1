/**
 * The SOAP 1.1 framing of OPC XML-DA 1.01 (OPC Foundation, "OPC XML-DA Specification" 1.01,
 * and its WSDL): document/literal messages in the XMLDA namespace, POSTed as text/xml with a
 * SOAPAction of the namespace plus the operation name. Both the client (edge/opc/client.ts) and
 * the test server (edge/simulators/opc-xml-da-server.ts) frame and read messages through here.
 */
import { DOMParser, type Element } from '@xmldom/xmldom';

export const xmlDaNamespace = 'http://opcfoundation.org/webservices/XMLDA/1.0/';
export const soapNamespace = 'http://schemas.xmlsoap.org/soap/envelope/';
export const xsdNamespace = 'http://www.w3.org/2001/XMLSchema';
export const xsiNamespace = 'http://www.w3.org/2001/XMLSchema-instance';

/** The operations of the XML-DA port type that the agent uses (Subscribe and its kin are left out: the cloud asks one request at a time). */
export const xmlDaOperations = ['GetStatus', 'Browse', 'GetProperties', 'Read', 'Write'] as const;
export type XmlDaOperation = (typeof xmlDaOperations)[number];

/** The server states of a reply (the WSDL's serverState). */
export const serverStates = ['running', 'failed', 'noConfig', 'suspended', 'test', 'commFault'] as const;
export type ServerStateName = (typeof serverStates)[number];

/** The SOAPAction header of an operation (the WSDL's soap:operation soapAction). */
export function soapAction(operation: XmlDaOperation): string {
  return `${xmlDaNamespace}${operation}`;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or an attribute value as XML. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

/** Attributes as XML, in the order given; undefined ones are left out. */
export function xmlAttributes(attributes: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('');
}

/** A SOAP envelope around one body element, the XMLDA namespace as default and the xsd/xsi prefixes declared (typed values use them). */
export function soapEnvelope(body: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${soapNamespace}" xmlns:xsd="${xsdNamespace}" xmlns:xsi="${xsiNamespace}">` +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`
  );
}

/** A SOAP fault (SOAP 1.1 section 4.4); `code` is a QName such as `soap:Client` or an OPC error as `opc:E_...`. */
export function soapFault(code: string, text: string): string {
  return soapEnvelope(
    `<soap:Fault xmlns:opc="${xmlDaNamespace}"><faultcode>${escapeXml(code)}</faultcode><faultstring>${escapeXml(text)}</faultstring></soap:Fault>`,
  );
}

/** What a SOAP message carried: the body's element, or a fault. */
export type SoapMessage = { body: Element } | { fault: { code: string; text: string } };

/** Thrown when a text is not a SOAP envelope with one body element. */
export class SoapFormatError extends Error {}

/** The element children of an element named `localName` (in any namespace: servers differ in prefixes, not in names). */
export function childElements(parent: Element, localName?: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) {
      const element = node as Element;
      if (localName === undefined || element.localName === localName) {
        found.push(element);
      }
    }
  }
  return found;
}

/** The first element child named `localName`, if any. */
export function childElement(parent: Element, localName: string): Element | undefined {
  return childElements(parent, localName)[0];
}

/** The text of an element (its descendants' text joined). */
export function textOf(element: Element | undefined): string {
  return element?.textContent ?? '';
}

/** The local part of a QName (`opc:E_UNKNOWNITEMNAME` gives `E_UNKNOWNITEMNAME`). */
export function localPart(qname: string): string {
  const colon = qname.lastIndexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}

/** An attribute's value, undefined when absent. */
export function attribute(element: Element, name: string): string | undefined {
  return element.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}

/** Reads a SOAP envelope: its body's one element or its fault. Throws SoapFormatError when the text is not one. */
export function parseSoap(xml: string): SoapMessage {
  const errors: string[] = [];
  let root: Element | null;
  try {
    root = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') {
          errors.push(message);
        }
      },
    }).parseFromString(xml, 'text/xml').documentElement;
  } catch (error) {
    // A fatal error (xmldom's ParseError): the text is not well-formed.
    throw new SoapFormatError(`not XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (errors.length > 0 || root === null) {
    throw new SoapFormatError(`not XML: ${errors[0] ?? 'no root element'}`);
  }
  if (root.localName !== 'Envelope' || root.namespaceURI !== soapNamespace) {
    throw new SoapFormatError(`not a SOAP 1.1 envelope (root element ${root.tagName})`);
  }
  const body = childElement(root, 'Body');
  const [content] = body === undefined ? [] : childElements(body);
  if (content === undefined) {
    throw new SoapFormatError('a SOAP envelope without a body element');
  }
  if (content.localName === 'Fault' && content.namespaceURI === soapNamespace) {
    return { fault: { code: textOf(childElement(content, 'faultcode')).trim(), text: textOf(childElement(content, 'faultstring')).trim() } };
  }
  return { body: content };
}
