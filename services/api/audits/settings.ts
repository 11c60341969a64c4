/** What the audit routes take from the configuration (infra/config.ts). */
export interface AuditApiSettings {
  /** PUBLIC_BASE_URL: reportUrl is `${publicBaseUrl}/app/audits/<auditId>`. */
  publicBaseUrl: string;
  /** ALLOW_PRIVATE_ADDRESSES: lifts the address rules of the acceptance-time URL checks (development and tests only). */
  allowPrivateAddresses: boolean;
  /** BULK_INACTIVITY_SECONDS: a new batch's inactivity timer is armed at submission (default 900). */
  bulkInactivitySeconds?: number;
}
