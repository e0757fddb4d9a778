import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { LOCALES, type TLocale } from '@air/shared/schemas/common';
import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import { mailOutbox } from '../db/schema';
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
  const file = path.join(TEMPLATE_DIR, `${name.replaceAll('_', '-')}.ts`);
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

export function createMailer(options: {
  db: TDb;
  config: Pick<TConfig, 'appUrl' | 'smtpUrl' | 'mailFrom'>;
  log: FastifyBaseLogger;
}): TMailer {
  const { db, config, log } = options;
  const smtp: Transporter | undefined = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : undefined;

  return {
    transport: smtp ? 'smtp' : 'outbox',
    async send(mail) {
      const to = mail.to.trim().toLowerCase();
      const content = await renderTemplate(config, mail);
      const links = linksOf(content.html);
      if (smtp) {
        await smtp.sendMail({
          from: config.mailFrom,
          to,
          subject: content.subject,
          html: content.html,
          text: content.text,
        });
      }
      // A record either way; without SMTP it is the outbox a local developer reads at /dev/mail.
      await db.insert(mailOutbox).values({
        to,
        subject: content.subject,
        html: content.html,
        text: content.text,
        template: mail.template,
        links,
        sentAt: smtp ? new Date() : null,
      });
      if (smtp) log.info({ template: mail.template }, 'mail sent');
      else
        log.info(
          { to, template: mail.template, links },
          'mail stored in the dev outbox (no SMTP_URL): GET /dev/mail',
        );
    },
    async close() {
      smtp?.close();
    },
  };
}
