import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZPayoutStatementParams, ZPayoutStatementQuery } from '@air/shared/schemas/payout';
import { ZErrorBody } from '@air/shared/schemas/common';
import { documentedAs } from '../../../core/openapi';
import { route } from '../../../core/route';
import { registerMessages } from '../../../i18n';
import { AppError } from '../../../lib/app-error';
import { accountSummary, ownerContacts } from '../../membership/service';
import { payoutAccountOf, setPayoutAccount } from './payout-account';
import { statementCsv, statementPdf } from './statement';
import { statementTokenValid } from './statement-token';
import { payoutOf, payoutsOf } from './summary';

registerMessages({
  en: {
    'validation.iban': 'Enter a valid IBAN (its country, length and check digits)',
    'validation.routing_number': 'Enter a valid 9-digit routing number',
    'validation.account_number': 'Enter the account number: 4 to 17 digits',
    'validation.holder_name': 'Enter the account holder’s name (at most 140 characters)',
    'validation.payout_method': 'Choose how payouts are made: a bank account (IBAN or US) or Stripe',
  },
  es: {
    'validation.iban': 'Introduce un IBAN válido (país, longitud y dígitos de control)',
    'validation.routing_number': 'Introduce un número de ruta válido de 9 dígitos',
    'validation.account_number': 'Introduce el número de cuenta: de 4 a 17 dígitos',
    'validation.holder_name': 'Introduce el nombre del titular (140 caracteres como máximo)',
    'validation.payout_method':
      'Elige cómo se pagan los pagos: una cuenta bancaria (IBAN o EE. UU.) o Stripe',
  },
});

/**
 * The provider's payout calls (contract 5b): the balance and payouts, where payouts go, and each
 * payout's statement (PDF or CSV) behind a signed link, as the invoice PDFs are.
 */
export async function registerPayoutRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];
  const owner = app.authorize({ permission: 'owner', sessionOnly: true });
  const verifiedOwner = app.authorize({ permission: 'owner', sessionOnly: true, verified: true });

  route(app, 'GET /api/account/payouts', { preHandler: owner, schema: { tags } }, async (request) => ({
    data: await payoutsOf(app.billing, request.auth!.accountId, app.config.secret),
  }));

  route(app, 'GET /api/account/payout-account', { preHandler: owner, schema: { tags } }, async (request) => ({
    data: await payoutAccountOf(app.billing, request.auth!.accountId),
  }));

  // Where the money goes: the owner with a verified address (as for the card).
  route(
    app,
    'PUT /api/account/payout-account',
    { preHandler: verifiedOwner, schema: { tags } },
    async (request) => {
      const accountId = request.auth!.accountId;
      // Stripe pre-fills the Express account's onboarding with the owner's address.
      const email = (await ownerContacts(app.db, accountId))[0]?.email ?? null;
      return { data: await setPayoutAccount(app.billing, accountId, request.body, email) };
    },
  );

  // Opened in a new tab: the signed token of `statement_pdf` / `statement_csv`, or the owner's session.
  for (const format of ['pdf', 'csv'] as const) {
    app.get(
      `/account/payouts/:id/${format}`,
      {
        schema: { tags, params: ZPayoutStatementParams, querystring: ZPayoutStatementQuery },
        config: {
          swaggerTransform: documentedAs({
            tags,
            operationId: format === 'pdf' ? 'getPayoutStatementPdf' : 'getPayoutStatementCsv',
            summary: `A payout's statement as ${format.toUpperCase()} (signed link or the owner session)`,
            params: ZPayoutStatementParams,
            querystring: ZPayoutStatementQuery,
            response: {
              200: {
                description: 'The statement',
                content: {
                  [format === 'pdf' ? 'application/pdf' : 'text/csv']: { schema: z.string() },
                },
              },
              '4XX': ZErrorBody,
            },
          }),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { token } = request.query;
        let accountId: string | null = null;
        if (!token || !statementTokenValid(app.config.secret, id, token)) {
          await owner.call(app, request, reply);
          if (reply.sent) return reply;
          accountId = request.auth!.accountId;
        }
        const found = await payoutOf(app.billing, accountId, id);
        if (!found) throw new AppError('not_found');
        const name = `payout-${found.row.period}`;
        reply.header('cache-control', 'private, no-store');
        if (format === 'csv') {
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${name}.csv"`)
            .send(statementCsv(found.row, found.lines));
        }
        const summary = await accountSummary(app.db, found.row.providerAccountId);
        const plan = app.billing.plans.find((p) => p.price > 0) ?? app.billing.plans[0];
        const pdf = await statementPdf(found.row, found.lines, {
          name: summary?.name ?? 'Closed account',
          symbol: plan?.currency_symbol ?? '$',
          seller: app.config.invoiceSeller,
        });
        return reply
          .type('application/pdf')
          .header('content-disposition', `inline; filename="${name}.pdf"`)
          .send(pdf);
      },
    );
  }
}
