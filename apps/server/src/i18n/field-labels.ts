import type { TLocale } from '@air/shared/schemas/common';

/** `route_name` → `Route name`: a field's English label in generic validation messages. */
export function humanise(field: string): string {
  const last = field.split('.').pop() ?? field;
  const words = last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Field';
}

/**
 * The Spanish labels of the console API's body, path and query fields (a nested field goes by its last name:
 * `config.upstreams.1.url` is `url`), so a Spanish message reads "Nombre de la ruta es
 * obligatorio", not "Route name es obligatorio". English needs no table: its label is the field's
 * name humanised. test/field-labels.test.ts checks every field of the call table is here.
 */
const ES: Record<string, string> = {
  isActive: 'Activo',
  isPrivate: 'Privado',
  isShared: 'Compartido',
  '2fa_enabled': 'Verificación en dos pasos',
  account: 'Cuenta',
  account_name: 'Nombre de la cuenta',
  account_number: 'Número de cuenta',
  active: 'Activo',
  allowed_origins: 'Orígenes permitidos',
  avatar: 'Avatar',
  client_secret: 'Secreto del pago',
  code: 'Código',
  comment: 'Comentario',
  config: 'Configuración',
  confirm_password: 'Confirmación de contraseña',
  cursor: 'Enlace de página',
  cvc: 'Código de seguridad',
  dark_mode: 'Modo oscuro',
  default_account: 'Cuenta predeterminada',
  description: 'Descripción',
  disabled_tools: 'Herramientas desactivadas',
  email: 'Correo electrónico',
  endpoint_id: 'Endpoint',
  events: 'Eventos',
  exp: 'Caducidad',
  exp_month: 'Mes de caducidad',
  exp_year: 'Año de caducidad',
  expires_at: 'Caducidad',
  fallbacks: 'Rutas de respaldo',
  from: 'Desde',
  has_password: 'Tiene contraseña',
  headers: 'Cabeceras',
  holder_name: 'Titular de la cuenta',
  iban: 'IBAN',
  id: 'Identificador',
  idempotency_key: 'Clave de idempotencia',
  ids: 'Identificadores',
  invite_id: 'Invitación',
  jwt: 'Token de sesión',
  key_id: 'Clave',
  limit: 'Límite',
  locale: 'Idioma',
  marketplace_spend_limit: 'Límite de gasto del marketplace',
  max_p95_ms: 'Latencia p95 máxima',
  max_price_1m: 'Precio máximo por millón de tokens',
  max_ttft_ms: 'Tiempo máximo hasta el primer token',
  member: 'Miembro',
  message: 'Mensaje',
  metadata: 'Metadatos',
  method: 'Método',
  min_tokens_per_s: 'Tokens por segundo mínimos',
  min_uptime: 'Disponibilidad mínima',
  model: 'Modelo',
  model_id: 'ID del modelo',
  monthly_calls: 'Llamadas al mes',
  monthly_spend: 'Presupuesto mensual',
  name: 'Nombre',
  newpassword: 'Nueva contraseña',
  number: 'Número de tarjeta',
  oldpassword: 'Contraseña actual',
  onboarded: 'Bienvenida completada',
  outcome: 'Resultado',
  password: 'Contraseña',
  payment: 'Pago',
  period: 'Periodo',
  permission: 'Permiso',
  plan: 'Plan',
  profile: 'Perfil',
  protocol: 'Protocolo',
  protocols: 'Protocolos',
  provider: 'Proveedor',
  q: 'Búsqueda',
  rating: 'Valoración',
  route: 'Ruta',
  route_endpoint: 'URL del endpoint',
  route_name: 'Nombre de la ruta',
  route_type: 'Tipo de ruta',
  routes: 'Rutas',
  routing_number: 'Número de ruta (ABA)',
  scope: 'Permisos',
  sort: 'Orden',
  status: 'Estado',
  support_enabled: 'Soporte activado',
  template: 'Plantilla',
  to: 'Hasta',
  token: 'Token',
  tokens_per_minute: 'Tokens por minuto',
  tool: 'Herramienta',
  tools: 'Herramientas',
  tools_read_only: 'Solo herramientas de lectura',
  trace_content: 'Contenido en las trazas',
  type: 'Tipo',
  upstreams: 'Upstreams',
  url: 'URL',
  window: 'Periodo de las cifras',
};

/** Whether `name` (a field's last name) has a Spanish label: for the completeness test. */
export const hasSpanishLabel = (name: string) => Object.hasOwn(ES, name);

/** A field's label in the caller's language: Spanish from the table, else the English one. */
export function fieldLabel(locale: TLocale, field: string): string {
  const last = field.split('.').pop() ?? field;
  if (locale === 'es' && Object.hasOwn(ES, last)) return ES[last]!;
  return humanise(field);
}
