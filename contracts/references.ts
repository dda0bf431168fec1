/** Another object as a view names it: an organisation, a user, an API key. */
export interface NamedReference {
  hashId: string;
  name: string;
}

/** A user as a view names them with their email: a device's outage contacts, an API key's creator. */
export interface UserReference extends NamedReference {
  email: string;
}
