import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustedProxies } from './net/client-ip';
import { isPostgresUrl } from './db/dialect';
import { SMTP_PORTS, type OutboundPolicy } from './net/outbound-guard';
import { parseSecretsKey } from './crypto/secret-box';
import type { HeavyWorkConfig } from './workers/heavy-work';

/** Whether this process runs as root, where Chromium refuses its sandbox. */
export const runsAsRoot = (): boolean => process.getuid?.() === 0;

const booleanString = z
  .enum(['true', 'false', '1', '0'], { message: 'attendu : true ou false' })
  .transform((v) => v === 'true' || v === '1');

const positiveInt = (fallback: number) =>
  z.coerce
    .number({ message: 'attendu : un nombre entier' })
    .int('attendu : un nombre entier')
    .positive('attendu : un nombre positif')
    .default(fallback);

/** Plus the rate-limit overrides the README lists. Read once at start. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce
    .number({ message: 'attendu : un numéro de port' })
    .int()
    .min(0)
    .max(65535, 'attendu : un port entre 0 et 65535')
    .default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).default('file:./data/facturier.db'),
  DATA_DIR: z.string().min(1).optional(),
  APP_URL: z.url({ message: 'attendu : une URL absolue (http://… ou https://…)' }).optional(),
  SESSION_SECURE: booleanString.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'attendu : une URL smtp:// ou smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Facturier <no-reply@facturier.local>'),
  LOG_LEVEL: z.enum(['info', 'silent']).default('info'),
  CLIENT_DIST: z.string().min(1).optional(),
  CHROMIUM_PATH: z.string().min(1).optional(),
  CHROMIUM_SANDBOX: z.enum(['on', 'off'], { message: 'attendu : on ou off' }).optional(),
  DATABASE_PASSWORD_FILE: z.string().min(1).optional(),
  LOGIN_MAX_FAILURES: positiveInt(10),
  LOGIN_WINDOW_MINUTES: positiveInt(15),
  LOGIN_MAX_FAILURES_PER_IP: positiveInt(50),
  REGISTER_MAX_PER_HOUR: positiveInt(100),
  RESET_MAIL_MAX_PER_HOUR: positiveInt(5),
  API_KEY_MAX_PER_MINUTE: positiveInt(600),
  TRUST_PROXY: z.string().default('loopback'),
  OUTBOUND_ALLOW_PRIVATE: booleanString.default(false),
  SMTP_TIMEOUT_SECONDS: positiveInt(10),
  METRICS_TOKEN: z.string().min(16, 'attendu : un jeton d’au moins 16 caractères').optional(),
  PLAN_LIMITS: z.enum(['on', 'off'], { message: 'attendu : on ou off' }).default('on'),
  // The worker threads of heavy work (workers/heavy-work.ts): how many, a task's time, a worker's memory.
  HEAVY_WORKERS: positiveInt(2).pipe(z.number().max(16, 'attendu : 16 au plus')),
  HEAVY_TASK_SECONDS: positiveInt(120),
  HEAVY_WORKER_MEMORY_MB: positiveInt(1024).pipe(z.number().min(64, 'attendu : 64 Mo au moins')),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, 'attendu : une clé secrète Stripe (sk_… ou rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, 'attendu : un secret de webhook Stripe (whsec_…)')
    .optional(),
  STRIPE_API_BASE: z.url({ message: 'attendu : une URL absolue' }).optional(),
  SECRETS_KEY: z
    .string()
    .refine((v) => parseSecretsKey(v) !== null, 'attendu : 32 octets, en 64 caractères hexadécimaux ou en base64 (openssl rand -hex 32)')
    .optional(),
  AUDIT_KEY: z
    .string()
    .refine((v) => parseSecretsKey(v) !== null, 'attendu : 32 octets, en 64 caractères hexadécimaux ou en base64 (openssl rand -hex 32)')
    .optional(),
});

export type Env = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The SQLite file (absolute), or the postgres:// URL when `databaseKind` is 'postgres'. */
  databasePath: string;
  databaseKind: 'sqlite' | 'postgres';
  dataDir: string;
  appUrl: string;
  sessionSecure: boolean;
  smtpUrl: string | undefined;
  /** SMTP_TIMEOUT_SECONDS: how long an organisation's own SMTP server may take to connect and greet (twice that per reply). */
  smtpTimeoutMs: number;
  mailFrom: string;
  logLevel: 'info' | 'silent';
  clientDist: string;
  /** The Chromium that renders PDFs; unset = Debian's /usr/bin/chromium when present. */
  chromiumPath: string | undefined;
  /** CHROMIUM_SANDBOX: Chromium's sandbox; unset = on, unless the process runs as root (where Chromium refuses it). */
  chromiumSandbox: boolean;
  /** TRUST_PROXY: the reverse proxies whose forwarded client address is believed (net/client-ip.ts). */
  trustedProxies: TrustedProxies;
  /** Where connections to addresses users type may go (net/outbound-guard.ts). */
  outbound: OutboundPolicy;
  /** METRICS_TOKEN: the bearer token of GET /metrics; unset = no metrics path. */
  metricsToken: string | undefined;
  /** PLAN_LIMITS=off lifts every plan limit (self-hosted deployments with no payment provider). */
  planLimits: boolean;
  /** HEAVY_WORKERS, HEAVY_TASK_SECONDS, HEAVY_WORKER_MEMORY_MB: the worker threads of validations, imports, PDFs. */
  heavyWork: HeavyWorkConfig;
  /** Both Stripe secrets, or null: plans are then applied at once or granted by `npm run plan`. */
  stripe: { secretKey: string; webhookSecret: string; apiBase?: string } | null;
  /** STRIPE_API_BASE alone: where the organisations' own Stripe keys are used too (card payments on their invoices). */
  stripeApiBase: string | undefined;
  /** SECRETS_KEY: the key of the secrets kept encrypted (crypto/secret-box.ts); unset = DATA_DIR/secrets.key. */
  secretsKey: Buffer | undefined;
  /** AUDIT_KEY: the key of the audit log's chain and closings (services/audit-key.ts); unset = DATA_DIR/audit.key. */
  auditKey: Buffer | undefined;
  rateLimits: {
    loginMaxFailures: number;
    loginWindowMs: number;
    loginMaxFailuresPerIp: number;
    registerMaxPerHour: number;
    resetMailMaxPerHour: number;
    apiKeyMaxPerMinute: number;
  };
};

export class EnvError extends Error {}

/** Empty strings count as unset, as most shells and .env loaders produce them for "no value". */
function withoutEmpty(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

/**
 * DATABASE_PASSWORD_FILE: the PostgreSQL password read from a file (a Docker or systemd secret), so that it appears
 * neither in the environment nor in a process listing; it replaces any password of DATABASE_URL.
 */
function withPasswordFromFile(url: string, file: string): string {
  if (!isPostgresUrl(url)) {
    throw new EnvError('Configuration invalide : DATABASE_PASSWORD_FILE ne sert qu’avec une DATABASE_URL postgres://.');
  }
  let password: string;
  try {
    password = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new EnvError(
      `Configuration invalide : DATABASE_PASSWORD_FILE illisible (${file}) : ${(error as NodeJS.ErrnoException).code ?? 'erreur'}.`,
    );
  }
  if (password === '') throw new EnvError(`Configuration invalide : DATABASE_PASSWORD_FILE est vide (${file}).`);
  const parsed = new URL(url);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(withoutEmpty(source));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')} : ${i.message}`);
    throw new EnvError(`Configuration invalide, le serveur ne démarre pas :\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  let databasePath: string;
  if (isPostgresUrl(e.DATABASE_URL)) {
    databasePath = e.DATABASE_URL;
  } else if (e.DATABASE_URL.startsWith('file:')) {
    databasePath = path.resolve(e.DATABASE_URL.slice('file:'.length));
  } else {
    throw new EnvError(
      `Configuration invalide : DATABASE_URL doit commencer par file: (SQLite) ou postgres:// (PostgreSQL) (reçu « ${e.DATABASE_URL} »).`,
    );
  }
  const databaseKind = isPostgresUrl(databasePath) ? 'postgres' : 'sqlite';
  if (e.DATABASE_PASSWORD_FILE !== undefined) databasePath = withPasswordFromFile(databasePath, e.DATABASE_PASSWORD_FILE);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  let trustedProxies: TrustedProxies;
  try {
    trustedProxies = parseTrustProxy(e.TRUST_PROXY);
  } catch (error) {
    throw new EnvError(`Configuration invalide, le serveur ne démarre pas :\n  TRUST_PROXY : ${(error as Error).message}`);
  }
  if ((e.STRIPE_SECRET_KEY === undefined) !== (e.STRIPE_WEBHOOK_SECRET === undefined)) {
    throw new EnvError(
      'Configuration invalide : STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET vont ensemble (les deux pour Stripe, aucun sans fournisseur de paiement).',
    );
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databasePath,
    databaseKind,
    // On PostgreSQL the files (kept PDFs, receipts) still need a folder: ./data unless DATA_DIR says otherwise.
    dataDir: path.resolve(e.DATA_DIR ?? (databaseKind === 'postgres' ? 'data' : path.dirname(databasePath))),
    appUrl,
    sessionSecure: e.SESSION_SECURE ?? appUrl.startsWith('https://'),
    smtpUrl: e.SMTP_URL,
    smtpTimeoutMs: e.SMTP_TIMEOUT_SECONDS * 1000,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    clientDist: path.resolve(e.CLIENT_DIST ?? 'dist/client'),
    chromiumPath: e.CHROMIUM_PATH,
    chromiumSandbox: e.CHROMIUM_SANDBOX === undefined ? !runsAsRoot() : e.CHROMIUM_SANDBOX === 'on',
    trustedProxies,
    outbound: { allowPrivate: e.OUTBOUND_ALLOW_PRIVATE, ports: SMTP_PORTS },
    metricsToken: e.METRICS_TOKEN,
    planLimits: e.PLAN_LIMITS === 'on',
    heavyWork: { workers: e.HEAVY_WORKERS, taskSeconds: e.HEAVY_TASK_SECONDS, memoryMb: e.HEAVY_WORKER_MEMORY_MB },
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE }
        : null,
    stripeApiBase: e.STRIPE_API_BASE,
    secretsKey: e.SECRETS_KEY === undefined ? undefined : (parseSecretsKey(e.SECRETS_KEY) ?? undefined),
    auditKey: e.AUDIT_KEY === undefined ? undefined : (parseSecretsKey(e.AUDIT_KEY) ?? undefined),
    rateLimits: {
      loginMaxFailures: e.LOGIN_MAX_FAILURES,
      loginWindowMs: e.LOGIN_WINDOW_MINUTES * 60_000,
      loginMaxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      registerMaxPerHour: e.REGISTER_MAX_PER_HOUR,
      resetMailMaxPerHour: e.RESET_MAIL_MAX_PER_HOUR,
      apiKeyMaxPerMinute: e.API_KEY_MAX_PER_MINUTE,
    },
  };
}
