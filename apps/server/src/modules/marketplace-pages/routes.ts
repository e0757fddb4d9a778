import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { MARKETPLACE_PAGE, ZMarketplaceParams, ZProviderSlug } from '@air/shared/schemas/marketplace';
import type { TConsolePageAnswer } from '../../core/console';
import { localeFromAcceptLanguage, registerMessages, t, type TLocale } from '../../i18n';
import { AppError } from '../../lib/app-error';
import { catalogEndpoint, catalogPage } from '../aiendpoint-shared/service';

/** Console pages, not API routes: at the site's root. */
export const prefix = '';

// The same words as the console's marketplace pages (apps/web/src/locales/*/marketplace.json), so
// a preview and the page a visitor then sees agree.
registerMessages({
  en: {
    'page.marketplace.title': 'AI endpoint marketplace',
    'page.marketplace.description':
      'Find shared AI agents, models and data sources, compare their price, reliability and speed, and call them through one OpenAI-compatible gateway.',
    'page.marketplace.provider_title': '{provider} on the AIR marketplace',
    'page.marketplace.provider_description':
      'AI endpoints shared by {provider}, with prices and live statistics.',
    'page.marketplace.endpoint_description': '{route} on the AIR marketplace.',
    'page.marketplace.not_found_title': 'Endpoint not found',
    'page.marketplace.not_found_description': 'It is not shared publicly, or it no longer exists.',
  },
  es: {
    'page.marketplace.title': 'Mercado de endpoints de IA',
    'page.marketplace.description':
      'Encuentra agentes, modelos y fuentes de datos de IA compartidos, compara su precio, fiabilidad y velocidad, y llámalos a través de una sola pasarela compatible con OpenAI.',
    'page.marketplace.provider_title': '{provider} en el mercado de AIR',
    'page.marketplace.provider_description':
      'Endpoints de IA compartidos por {provider}, con precios y estadísticas en vivo.',
    'page.marketplace.endpoint_description': '{route} en el mercado de AIR.',
    'page.marketplace.not_found_title': 'Endpoint no encontrado',
    'page.marketplace.not_found_description': 'No se comparte públicamente o ya no existe.',
  },
});

function localeOf(request: FastifyRequest): TLocale {
  return localeFromAcceptLanguage(request.headers['accept-language']);
}

function addressOf(app: FastifyInstance, request: FastifyRequest): string {
  return `${app.config.appUrl}${request.url.split('?')[0]}`;
}

function catalogMeta(
  app: FastifyInstance,
  request: FastifyRequest,
  status: TConsolePageAnswer['status'] = 200,
): TConsolePageAnswer {
  const locale = localeOf(request);
  return {
    status,
    locale,
    meta: {
      title: t(locale, 'page.marketplace.title'),
      description: t(locale, 'page.marketplace.description'),
      url: addressOf(app, request),
    },
  };
}

function notFound(app: FastifyInstance, request: FastifyRequest): TConsolePageAnswer {
  const locale = localeOf(request);
  return {
    status: 404,
    locale,
    meta: {
      title: t(locale, 'page.marketplace.not_found_title'),
      description: t(locale, 'page.marketplace.not_found_description'),
      url: addressOf(app, request),
    },
  };
}

/** `/marketplace/{provider}`: the provider's listed endpoints; none listed is a 404. */
async function providerPage(app: FastifyInstance, request: FastifyRequest): Promise<TConsolePageAnswer> {
  const slug = ZProviderSlug.safeParse((request.params as { provider?: string }).provider);
  if (!slug.success) return catalogMeta(app, request, 404);
  const page = await catalogPage(app.db, app.plans, {
    provider: slug.data,
    sort: 'popular',
    limit: MARKETPLACE_PAGE,
  });
  if (page.items.length === 0) return catalogMeta(app, request, 404);
  const locale = localeOf(request);
  return {
    status: 200,
    locale,
    meta: {
      title: t(locale, 'page.marketplace.provider_title', { provider: slug.data }),
      description: t(locale, 'page.marketplace.provider_description', { provider: slug.data }),
      url: addressOf(app, request),
    },
  };
}

/** `/marketplace/{provider}/{name}`: the endpoint's name and plain-text description. */
async function endpointPage(app: FastifyInstance, request: FastifyRequest): Promise<TConsolePageAnswer> {
  const params = ZMarketplaceParams.safeParse(request.params);
  if (!params.success) return notFound(app, request);
  const routeName = `${params.data.provider}/${params.data.name}`;
  try {
    const item = await catalogEndpoint(app.db, app.plans, app.config.appUrl, routeName);
    const locale = localeOf(request);
    return {
      status: 200,
      locale,
      meta: {
        title: item.name,
        description:
          item.description || t(locale, 'page.marketplace.endpoint_description', { route: routeName }),
        url: addressOf(app, request),
      },
    };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return notFound(app, request);
    throw error;
  }
}

/**
 * The marketplace's public pages with their title and description filled in on the server, for
 * link previews that run no script. Only what the public catalog lists is read (a private or
 * inactive endpoint is a 404 like an unknown one); the console still loads on a 404.
 */
const marketplacePages: FastifyPluginAsync = async (app) => {
  const hide = { schema: { hide: true } };
  app.get('/marketplace', hide, async (request, reply) =>
    app.sendConsolePage(reply, catalogMeta(app, request)),
  );
  app.get('/marketplace/:provider', hide, async (request, reply) =>
    app.sendConsolePage(reply, await providerPage(app, request)),
  );
  app.get('/marketplace/:provider/:name', hide, async (request, reply) =>
    app.sendConsolePage(reply, await endpointPage(app, request)),
  );
};

export default marketplacePages;
