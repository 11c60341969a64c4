import type { Resolver } from '../../../infra/http/resolver.ts';

/** What the audit routes take from the configuration (infra/config.ts). */
export interface AuditApiSettings {
  /** PUBLIC_BASE_URL: reportUrl is `${publicBaseUrl}/app/audits/<auditId>`. */
  publicBaseUrl: string;
  /** ALLOW_PRIVATE_ADDRESSES: lifts the address rules of the acceptance-time URL checks (development and tests only). */
  allowPrivateAddresses: boolean;
  /** The DNS of the acceptance-time address check (tests play a hostile DNS); the system's by default. */
  resolver?: Resolver;
  /** SHARE_DAY_SECONDS: the length of a share link's day (86,400 unless shortened for tests). */
  shareDaySeconds?: number;
  /** BULK_INACTIVITY_SECONDS: a new batch's inactivity timer is armed at submission (default 900). */
  bulkInactivitySeconds?: number;
  /** APPLY_LLM_* set: apply's items the writer model can write are selectable (default off). */
  applyWriter?: boolean;
}
