import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import { MailService, type MailSettings } from './operations/services/mail.service';
import { IssueJournal } from './operations/services/issue-journal';
import { AlarmService, type AlarmSettings } from './operations/services/alarm.service';
import { defaultAlarmRecoverySeconds } from '../contracts/monitors';
import { FileService } from './operations/services/file.service';
import type { FileSettings } from './operations/services/file-store';
import { OnCallService } from './operations/services/on-call.service';
import type { GrafanaOnCallSettings } from './operations/services/grafana-oncall.client';
import { TelephonyService, type TwilioSettings } from './operations/services/telephony.service';
import { IssueService } from './operations/services/issue.service';
import { IncomingMailService } from './operations/services/incoming-mail.service';
import { IssueMailer } from './operations/services/issue-mailer.service';
import type { HashIds } from './common/hash-ids';
import { InProcessPubSub, type PubSub } from './common/pubsub';
import { AuditLogService } from './identity/services/audit-log.service';
import { IdentityDirectory } from './identity/services/directory.service';
import { OrganizationService } from './identity/services/organization.service';
import { SecretBox } from './common/secret-box';
import { ProvisioningService } from './fleet/services/provisioning.service';
import { LoginService } from './identity/services/login.service';
import { PasswordResetService } from './identity/services/password-reset.service';
import { UserInviteService } from './identity/services/user-invite.service';
import { SamlRequestIds } from './identity/services/saml.service';
import { DeviceOutboxService } from './fleet/services/device-outbox.service';
import { DevicePresenceService } from './fleet/services/device-presence.service';
import { MessageFromDeviceService } from './fleet/services/message-from-device.service';
import { DeviceService } from './fleet/services/device.service';
import { MeasurementService } from './fleet/services/measurement.service';
import type { HistorySettings } from '../contracts/history';
import { PartnershipService } from './fleet/services/partnership.service';
import { DeviceGroupService } from './fleet/services/device-group.service';
import { SteeringService } from './fleet/services/steering.service';
import { SessionService } from './identity/services/session.service';
import { TwoFactorService } from './identity/services/two-factor.service';
import { UserService } from './identity/services/user.service';
import { ApiKeyService } from './identity/services/api-key.service';
import { ContactService } from './identity/services/contact.service';
import { DangerousActionService } from './identity/services/dangerous-action.service';
import type { BalenaSettings } from './fleet/services/balena.client';
import { FirmwareService } from './fleet/services/firmware.service';
import { DestinationDeliveries } from './forwarding/services/destination-deliveries';
import { GroupForwardingService } from './forwarding/services/group-forwarding.service';
import { MessageDestinationService } from './forwarding/services/message-destination.service';
import { defaultForwardingSettings, type ForwardingSettings } from './forwarding/services/forwarding-settings';
import { BillingLedger } from './billing/services/billing-ledger';
import { BillingChargeService } from './billing/services/charge.service';
import { SubscriptionJob } from './billing/services/subscription-job';
import { DeviceMessageService, DeviceTicketService, type HubspotSettings } from './fleet/services/device-message.service';
import { LegalEntityService } from './billing/services/legal-entity.service';
import { MoneybirdClient, type MoneybirdSettings } from './billing/services/moneybird.client';
import { BillingInvoiceService } from './billing/services/invoice.service';
import { InvoiceJob } from './billing/services/invoice-job';

/** Everything a service needs from outside: the database and the install's hash ids. */
export interface Dependencies {
  db: Knex;
  hashIds: HashIds;
  /** Signs console session tokens. */
  sessionSecret: string;
  /** Encrypts secrets kept in the database (64 hex characters). */
  encryptionKey: string;
  /** Outgoing mail; without it mail is kept in the database and logged. */
  mail?: MailSettings;
  /** Where services log; silent without it. */
  log?: Logger;
  /** Balena Cloud, for firmware; without a token firmware calls answer no_balena_credentials. */
  balena?: BalenaSettings;
  /** HubSpot, for the device ticket link; without a portal id it answers service_unavailable. */
  hubspot?: HubspotSettings;
  /** Pub/sub between the parts of Gridport (and nodes); in process without it. */
  pubsub?: PubSub;
  /** Retention of reports and roll-ups, which the history query reads from; the defaults without it. */
  history?: HistorySettings;
  /** Alarm recovery (ALARM_RECOVERY_SECONDS); the documented default without it. */
  alarms?: AlarmSettings;
  /** Where uploaded files are kept; the database without it. */
  files?: FileSettings;
  /** Grafana OnCall, for who is on call; without it GET /on-call/grafana answers service_unavailable. */
  grafanaOnCall?: GrafanaOnCallSettings;
  /** Twilio's auth token and the public URL it calls; without a token every Twilio request is refused. */
  twilio?: TwilioSettings;
  /** Forwarding: private networks allowed or not, pause time, polling (docs/forwarding.md); the defaults without it. */
  forwarding?: ForwardingSettings;
  /** What time it is: billing reckons periods, charges and invoices by it; the system clock without it (tests fix it). */
  clock?: () => Date;
  /** Moneybird, for legal entities made from a contact; without administration and token those answer service_unavailable. */
  moneybird?: MoneybirdSettings;
}

/** Every service, built once per process and shared by REST routes, resolvers, the hub and the CLI. */
export interface Services {
  pubsub: PubSub;
  /** What time it is for billing (Dependencies.clock). */
  clock: () => Date;
  /** The hash ids every service encodes with. */
  hashIds: HashIds;
  organizations: OrganizationService;
  auditLog: AuditLogService;
  users: UserService;
  sessions: SessionService;
  logins: LoginService;
  twoFactor: TwoFactorService;
  apiKeys: ApiKeyService;
  contacts: ContactService;
  dangerousActions: DangerousActionService;
  mail: MailService;
  passwordResets: PasswordResetService;
  userInvites: UserInviteService;
  devices: DeviceService;
  /** Device measurement history. */
  measurements: MeasurementService;
  partnerships: PartnershipService;
  deviceGroups: DeviceGroupService;
  deviceOutbox: DeviceOutboxService;
  /** Which connection and node hold each device, kept true across crashes. */
  devicePresence: DevicePresenceService;
  /** messageFromDevice audit entries (error and alarm reports, gateway error envelopes), monitors on or off. */
  messagesFromDevice: MessageFromDeviceService;
  steering: SteeringService;
  firmware: FirmwareService;
  deviceMessages: DeviceMessageService;
  deviceTickets: DeviceTicketService;
  /** SAML AuthnRequest ids, shared by every node. */
  samlRequests: SamlRequestIds;
  /** The platform CA and device certificates. */
  provisioning: ProvisioningService;
  /** The one writer of issues and their timelines (users, monitors, mail, phone calls). */
  issueJournal: IssueJournal;
  /** The one writer of alarms and the issues they make (the monitors: graph/operations/services/monitor-*.ts). */
  alarms: AlarmService;
  /** Uploaded files: limits, types, storage, who may read, attaching them to issue messages. */
  files: FileService;
  /** The on-call ops user and Grafana OnCall's schedule. */
  onCall: OnCallService;
  /** Incoming phone calls through Twilio, each kept on an issue. */
  telephony: TelephonyService;
  /** Issues, their timelines, messages and subscribers (console.md section 7). */
  issues: IssueService;
  /** Mail that reaches the SMTP receiver: added to the issue it answers, or a new issue. */
  incomingMail: IncomingMailService;
  /** Issue messages out by mail: to their to and cc, and to the issue's subscribers (a worker on every node runs it). */
  issueMailer: IssueMailer;
  /** How this install forwards (the address policy every destination connects under). */
  forwardingSettings: ForwardingSettings;
  /** Each message destination's cursor, state and health (the delivery worker moves the cursors). */
  forwardingDeliveries: DestinationDeliveries;
  /** Message destinations: their settings (secrets sealed), outage contacts, health, resume. */
  messageDestinations: MessageDestinationService;
  /** Which device groups forward which message types to which destinations. */
  groupForwarding: GroupForwardingService;
  /** Billing legal entities: from details or a Moneybird contact, the organisation's default, deletion when unused. */
  billingLegalEntities: LegalEntityService;
  /** Billable units kept with every change, pro-rata charges of what a change adds (docs/billing.md). */
  billingLedger: BillingLedger;
  /** Charges: the list, manual charges, removal, refunds, the monthly forecast. */
  billingCharges: BillingChargeService;
  /** The scheduled subscription charges (the server runs it every BILLING_JOB_INTERVAL_SECONDS; `gridport billing charge-subscriptions`). */
  billingJob: SubscriptionJob;
  /** Invoices: their lists, charges and PDFs (docs/billing.md, "Invoices"). */
  billingInvoices: BillingInvoiceService;
  /** The invoicing job: per organisation, the charges due gathered into invoices. */
  invoicing: InvoiceJob;
}

export function createServices({
  db,
  hashIds,
  sessionSecret,
  encryptionKey,
  mail,
  log = pino({ level: 'silent' }),
  balena,
  hubspot,
  pubsub: givenPubsub,
  history,
  alarms,
  files: fileSettings,
  grafanaOnCall,
  twilio,
  forwarding: forwardingSettings = defaultForwardingSettings,
  clock = () => new Date(),
  moneybird,
}: Dependencies): Services {
  const pubsub = givenPubsub ?? new InProcessPubSub((error, channel) => log.error({ err: error, channel }, 'a pub/sub handler failed'));
  const organizations = new OrganizationService(db, hashIds);
  const box = new SecretBox(encryptionKey);
  const sessions = new SessionService(db, hashIds, organizations, sessionSecret);
  const deviceOutbox = new DeviceOutboxService(db, pubsub);
  const directory = new IdentityDirectory();
  const dangerousActions = new DangerousActionService();
  const auditLog = new AuditLogService(db, hashIds);
  const mailService = new MailService(
    db,
    hashIds,
    mail ?? { smtpUrl: null, from: 'Gridport <no-reply@gridport.invalid>', publicUrl: 'http://localhost:8080' },
    log,
  );
  const issueJournal = new IssueJournal(pubsub);
  const alarmService = new AlarmService(db, issueJournal, mailService, directory, alarms ?? { recoverySeconds: defaultAlarmRecoverySeconds }, log);
  const billingLedger = new BillingLedger(clock);
  const billingCharges = new BillingChargeService(db, hashIds, clock);
  const billingInvoices = new BillingInvoiceService(db, hashIds, directory, billingCharges);
  const devices = new DeviceService(db, hashIds, deviceOutbox, directory, alarmService, billingLedger);
  const users = new UserService(db, hashIds);
  const contacts = new ContactService(db, billingLedger);
  const issues = new IssueService(db, hashIds, issueJournal, devices, directory, auditLog, pubsub);
  const files = new FileService(db, issues, fileSettings);
  const onCall = new OnCallService(db, hashIds, directory, users, grafanaOnCall);
  const forwardingDeliveries = new DestinationDeliveries(db);
  return {
    pubsub,
    clock,
    hashIds,
    organizations,
    auditLog,
    users,
    sessions,
    logins: new LoginService(db, sessions, box),
    twoFactor: new TwoFactorService(db, box),
    apiKeys: new ApiKeyService(db, hashIds),
    contacts,
    dangerousActions,
    mail: mailService,
    passwordResets: new PasswordResetService(db, mailService, box),
    userInvites: new UserInviteService(db, hashIds, box, mailService, sessions),
    samlRequests: new SamlRequestIds(db),
    devices,
    measurements: new MeasurementService(db, devices, history),
    partnerships: new PartnershipService(db, hashIds, directory),
    deviceGroups: new DeviceGroupService(db, hashIds, directory, billingLedger),
    steering: new SteeringService(db, hashIds, devices, deviceOutbox, dangerousActions),
    deviceOutbox,
    devicePresence: new DevicePresenceService(db, pubsub),
    messagesFromDevice: new MessageFromDeviceService(db, log),
    firmware: new FirmwareService(db, devices, dangerousActions, balena),
    deviceMessages: new DeviceMessageService(db, devices, deviceOutbox, dangerousActions),
    deviceTickets: new DeviceTicketService(devices, hubspot),
    provisioning: new ProvisioningService(db, box),
    issueJournal,
    alarms: alarmService,
    issues,
    incomingMail: new IncomingMailService(db, hashIds, issueJournal, directory, files, issues),
    issueMailer: new IssueMailer(db, hashIds, mailService, directory, issues, log),
    files,
    onCall,
    telephony: new TelephonyService(db, issueJournal, onCall, contacts, twilio),
    forwardingSettings,
    forwardingDeliveries,
    messageDestinations: new MessageDestinationService(db, hashIds, directory, box, forwardingDeliveries, forwardingSettings, alarmService, billingLedger),
    groupForwarding: new GroupForwardingService(db, hashIds, billingLedger),
    billingLedger,
    billingCharges,
    billingJob: new SubscriptionJob(db, billingLedger, clock, log),
    billingLegalEntities: new LegalEntityService(db, hashIds, directory, new MoneybirdClient(moneybird)),
    billingInvoices,
    invoicing: new InvoiceJob(db, hashIds, billingInvoices, clock),
  };
}
