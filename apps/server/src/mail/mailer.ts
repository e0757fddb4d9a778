import { lt, sql } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { LOCALES, type TLocale } from '@air/shared/schemas/common';
import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import { mailOutbox } from '../db/schema/mail-outbox';
import { SOURCE_EXT } from '../lib/source-ext';
import { linksOf } from './layout';
import type { TMailParams, TMailTemplate } from './template';

export interface TSendMail {
  to: string;
  /** The recipient's locale (their stored user locale), not the requester's. */
  locale: TLocale | string;
  template: string;
  params?: TMailParams;
}

export interface TMailer {
  /** Renders and delivers (SMTP) or stores (dev outbox). Throws when the SMTP server refuses. */
  send(mail: TSendMail): Promise<void>;
  /** 'smtp' when SMTP_URL is set, else 'outbox'. */
  readonly transport: 'smtp' | 'outbox';
  close(): Promise<void>;
}

const TEMPLATE_DIR = path.join(import.meta.dirname, 'templates');
const TEMPLATE_NAME = /^[a-z][a-z0-9_]*$/;
const templateCache = new Map<string, TMailTemplate>();

export async function loadTemplate(name: string): Promise<TMailTemplate> {
  const cached = templateCache.get(name);
  if (cached) return cached;
  if (!TEMPLATE_NAME.test(name)) throw new Error(`Invalid mail template name "${name}"`);
  const file = path.join(TEMPLATE_DIR, `${name.replaceAll('_', '-')}${SOURCE_EXT}`);
  if (!existsSync(file)) throw new Error(`Unknown mail template "${name}"`);
  const mod = (await import(pathToFileURL(file).href)) as { default?: TMailTemplate };
  if (!mod.default || LOCALES.some((locale) => typeof mod.default![locale] !== 'function')) {
    throw new Error(`Mail template "${name}" must default-export defineMailTemplate({ en, es })`);
  }
  templateCache.set(name, mod.default);
  return mod.default;
}

export async function renderTemplate(config: Pick<TConfig, 'appUrl'>, mail: TSendMail) {
  const template = await loadTemplate(mail.template);
  const locale: TLocale = (LOCALES as readonly string[]).includes(mail.locale)
    ? (mail.locale as TLocale)
    : 'en';
  return template[locale](mail.params ?? {}, {
    appUrl: config.appUrl.replace(/\/+$/, ''),
    productName: 'AIR',
  });
}

/** Outbox rows hold sign-in links: none is kept longer than this. */
export const OUTBOX_RETENTION_HOURS = 24;

/** Deletes outbox rows past the retention (when mail is sent, when the outbox is read, hourly). */
export async function purgeOutbox(db: TDb): Promise<void> {
  await db
    .delete(mailOutbox)
    .where(lt(mailOutbox.createdAt, sql`now() - make_interval(hours => ${OUTBOX_RETENTION_HOURS})`));
}

/**
 * The dev outbox is served only without SMTP and outside production, and then only to loopback
 * callers (modules/dev-mail): mail links must never be readable on a reachable address.
 */
export function devOutboxEnabled(config: Pick<TConfig, 'smtpUrl' | 'isProduction'>): boolean {
  return !config.smtpUrl && !config.isProduction;
}

/** How mail goes out, for the start-up line. */
export function mailStatus(config: Pick<TConfig, 'smtpUrl' | 'isProduction' | 'appUrl'>): string {
  if (config.smtpUrl) return 'mail over SMTP';
  if (config.isProduction) return 'mail NOT configured (set SMTP_URL): no mail is delivered';
  return `mail to the dev outbox at ${config.appUrl}/dev/mail (loopback callers only)`;
}

/**
 * nodemailer waits 30 s for a server's greeting and 2 min for a connection by default, while the
 * request that sends the mail (a sign-up, a password reset) waits too. A server that has not
 * answered in 10 s is given up on and tried again on a new connection (SMTP_RETRY_MS). An SMTP_URL
 * that sets these itself (`?greetingTimeout=…`) keeps its own.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/** The waits before the second and third attempt of a mail that failed for a passing reason. */
export const SMTP_RETRY_MS = [1_000, 3_000];

function withSmtpTimeouts(url: string): string {
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(SMTP_TIMEOUTS))
    if (!parsed.searchParams.has(key)) parsed.searchParams.set(key, String(value));
  return parsed.toString();
}

/** A refusal of the mail itself (5xx) is final; no answer, a lost connection or a 4xx may pass. */
function transientSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return code === undefined || (code >= 400 && code < 500);
}

export function createMailer(options: {
  db: TDb;
  config: Pick<TConfig, 'appUrl' | 'smtpUrl' | 'mailFrom' | 'isProduction'>;
  log: FastifyBaseLogger;
}): TMailer {
  const { db, config, log } = options;
  // nodemailer is loaded only when mail goes over SMTP: the default install never needs it.
  const smtp: Promise<Transporter> | undefined = config.smtpUrl
    ? import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport(withSmtpTimeouts(config.smtpUrl!)),
      )
    : undefined;

  return {
    transport: smtp ? 'smtp' : 'outbox',
    async send(mail) {
      const to = mail.to.trim().toLowerCase();
      const content = await renderTemplate(config, mail);
      const links = linksOf(content.html);
      if (smtp) {
        const transporter = await smtp;
        for (let attempt = 1; ; attempt++) {
          try {
            await transporter.sendMail({
              from: config.mailFrom,
              to,
              subject: content.subject,
              html: content.html,
              text: content.text,
            });
            break;
          } catch (error) {
            if (attempt >= SMTP_RETRY_MS.length + 1 || !transientSmtpError(error)) throw error;
            log.warn({ err: error, attempt, template: mail.template }, 'mail not sent, trying again');
            await sleep(SMTP_RETRY_MS[attempt - 1]!);
          }
        }
        // Delivered mail is not kept: its links must not sit readable in the database.
        log.info({ template: mail.template }, 'mail sent');
        return;
      }
      // Without SMTP the outbox is the only copy; rows older than the retention go as new ones come.
      await purgeOutbox(db);
      await db.insert(mailOutbox).values({
        to,
        subject: content.subject,
        html: content.html,
        text: content.text,
        template: mail.template,
        links,
        sentAt: null,
      });
      if (config.isProduction) {
        log.warn({ template: mail.template }, 'mail is not configured (SMTP_URL unset): mail not delivered');
      } else {
        log.info(
          { to, template: mail.template, links },
          'mail stored in the dev outbox (no SMTP_URL): GET /dev/mail from this machine',
        );
      }
    },
    async close() {
      (await smtp)?.close();
    },
  };
}
