import type { TFunction } from 'i18next';
import type { TFormFields } from '@/components/form/types';
import { ROUTE_NAME_MAX_LENGTH, ROUTE_NAME_PATTERN } from '@air/shared/schemas/aiendpoint';
import { generateEndpointName, ROUTE_TYPES, type TAiEndpoint } from './endpoint-types';

function routeFields(t: TFunction, values: Partial<TAiEndpoint>): TFormFields {
  return {
    route_name: {
      type: 'text',
      label: t('registry:form.routeName'),
      placeholder: 'provider/model',
      description: t('registry:form.routeNameHelp'),
      required: true,
      maxLength: ROUTE_NAME_MAX_LENGTH,
      validation: ROUTE_NAME_PATTERN,
      errorMessage: t('registry:form.routeNameInvalid'),
      value: values.route_name,
    },
    route_endpoint: {
      type: 'url',
      label: t('registry:form.routeEndpoint'),
      placeholder: 'https://api.example.com/v1/chat/completions',
      required: true,
      maxLength: 2048,
      value: values.route_endpoint,
    },
    route_type: {
      type: 'select',
      label: t('registry:form.routeType'),
      required: true,
      defaultValue: 'agent',
      options: ROUTE_TYPES.map((type) => ({ value: type, label: t(`registry:type.${type}`) })),
      value: values.route_type,
    },
  };
}

/** The New dialog: route name, endpoint URL, type (default agent); the name is generated. */
export function createEndpointFields(t: TFunction, now = new Date()): TFormFields {
  return {
    ...routeFields(t, {}),
    name: { type: 'hidden', value: generateEndpointName(now) },
    isShared: { type: 'hidden', value: false },
    isPrivate: { type: 'hidden', value: true },
  };
}

/** The Edit dialog: the name plus the routing fields. */
export function editEndpointFields(t: TFunction, endpoint: TAiEndpoint): TFormFields {
  return {
    name: {
      type: 'text',
      label: t('registry:form.name'),
      required: true,
      maxLength: 200,
      value: endpoint.name,
    },
    ...routeFields(t, endpoint),
  };
}
