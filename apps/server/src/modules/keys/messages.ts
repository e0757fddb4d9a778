import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'validation.key_name_required': 'Please provide a descriptive name for your key',
    'validation.key_scope_required': 'Please select at least one scope',
    'validation.key_revoked': 'A revoked key cannot be reactivated: create a new key instead',
    'validation.key_expires_past': 'The expiry must be in the future',
    'validation.key_route_unknown': 'No route you may call is named {name}',
    'validation.key_origin': 'An origin is a scheme and host, like https://app.example.com',
    'keys.created': 'API key created. Each later reveal of it is recorded in the activity log',
    'keys.updated': 'API key updated',
    'keys.revoked': 'API key revoked',
    'keys.deleted': 'API keys deleted',
  },
  es: {
    'validation.key_name_required': 'Indica un nombre descriptivo para tu clave',
    'validation.key_scope_required': 'Selecciona al menos un ámbito',
    'validation.key_revoked': 'Una clave revocada no se puede reactivar: crea una clave nueva',
    'validation.key_expires_past': 'La caducidad debe ser una fecha futura',
    'validation.key_route_unknown': 'No hay ninguna ruta que puedas llamar con el nombre {name}',
    'validation.key_origin': 'Un origen es un esquema y un host, como https://app.example.com',
    'keys.created':
      'Clave de API creada. Cada vez que se vuelva a mostrar quedará registrada en el registro de actividad',
    'keys.updated': 'Clave de API actualizada',
    'keys.revoked': 'Clave de API revocada',
    'keys.deleted': 'Claves de API eliminadas',
  },
});
