import type { TFunction } from 'i18next';
import { API_PROTOCOLS, ZCreateAiEndpoint, ZUpdateAiEndpoint } from '@air/shared/schemas/aiendpoint';
import type { TFormSchema } from '@/components/form/types';
import type { TFormFields } from '@/components/form/types';
import { ROUTE_TYPES, type TAiEndpoint } from './endpoint-types';

/** A form dialog's fields with the request schema that validates them (the server's own). */
export interface TEndpointForm {
  fields: TFormFields;
  schema: TFormSchema;
}

function routeFields(t: TFunction, values: Partial<TAiEndpoint>): TFormFields {
  return {
    route_name: {
      type: 'text',
      label: t('registry:form.routeName'),
      placeholder: 'provider/model',
      description: t('registry:form.routeNameHelp'),
      value: values.route_name,
    },
    route_endpoint: {
      type: 'url',
      label: t('registry:form.routeEndpoint'),
      placeholder: 'https://api.example.com/v1/chat/completions',
      value: values.route_endpoint,
    },
    route_type: {
      type: 'select',
      label: t('registry:form.routeType'),
      defaultValue: 'agent',
      options: ROUTE_TYPES.map((type) => ({ value: type, label: t(`registry:type.${type}`) })),
      value: values.route_type,
    },
    // OpenAI-compatible (the gateway's /api/v1) or an MCP server (/api/mcp/{route}, contract 6d).
    protocol: {
      type: 'select',
      label: t('registry:form.protocol'),
      description: t('registry:form.protocolHelp'),
      defaultValue: 'openai',
      options: API_PROTOCOLS.map((protocol) => ({
        value: protocol,
        label: t(`registry:protocol.${protocol}`),
      })),
      value: values.protocol,
    },
  };
}

/**
 * The New dialog: route name, endpoint URL, type (default agent), protocol (default OpenAI). No name is sent: the server
 * names the endpoint after its route, the identity people read in lists (issue 26).
 */
export function createEndpointForm(t: TFunction): TEndpointForm {
  return {
    fields: {
      ...routeFields(t, {}),
      isShared: { type: 'hidden', value: false },
      isPrivate: { type: 'hidden', value: true },
    },
    schema: ZCreateAiEndpoint,
  };
}

/** The Edit dialog: the name plus the routing fields. */
export function editEndpointForm(t: TFunction, endpoint: TAiEndpoint): TEndpointForm {
  return {
    fields: {
      name: { type: 'text', label: t('registry:form.name'), value: endpoint.name },
      ...routeFields(t, endpoint),
    },
    schema: ZUpdateAiEndpoint,
  };
}
