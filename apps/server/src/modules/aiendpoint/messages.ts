import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'validation.route_name_format':
      'Route name must be lower-case provider/name: letters, digits, -, _ and . (and : after the slash)',
    'validation.header_name': 'Upstream headers need valid header names (at most 20 headers)',
    'validation.header_value':
      'The value of header {name} can hold only visible characters of Latin-1, with spaces or tabs between them: no line breaks, control characters or spaces at either end',
    'validation.header_reserved': '{name} is set by the gateway and cannot be configured',
    'validation.header_masked_unknown': 'Enter a value for the new header {name}',
    'validation.upstream_duplicate': 'Each upstream URL may be listed once',
    'validation.fallback_self': 'A route cannot fall back to itself',
    'validation.fallback_duplicate': 'Each fallback route may be listed once',
    'validation.fallback_unknown': 'No route you may call is named {name}',
    'validation.mcp_token_price':
      'An MCP endpoint is priced per tool call: its prices per million tokens must be 0',
    'validation.tool_prices_not_mcp': 'Only an MCP endpoint has tools to price one by one',
    'validation.model_id_format': 'A model id holds visible characters only (at most 128)',
    'registry.route_name_taken': 'This route name is already taken',
    'registry.created': 'Endpoint created',
    'registry.updated': 'Endpoint saved',
    'registry.deleted': 'Endpoints deleted',
  },
  es: {
    'validation.route_name_format':
      'El nombre de ruta debe ser proveedor/nombre en minúsculas: letras, dígitos, -, _ y . (y : tras la barra)',
    'validation.header_name': 'Las cabeceras necesitan nombres válidos (como máximo 20 cabeceras)',
    'validation.header_value':
      'El valor de la cabecera {name} solo puede contener caracteres visibles de Latin-1, con espacios o tabuladores entre ellos: sin saltos de línea, caracteres de control ni espacios al principio o al final',
    'validation.header_reserved': 'El gateway define {name}: no se puede configurar',
    'validation.header_masked_unknown': 'Introduce un valor para la nueva cabecera {name}',
    'validation.upstream_duplicate': 'Cada URL de destino solo puede aparecer una vez',
    'validation.fallback_self': 'Una ruta no puede usarse a sí misma como alternativa',
    'validation.fallback_duplicate': 'Cada ruta alternativa solo puede aparecer una vez',
    'validation.fallback_unknown': 'No hay ninguna ruta que puedas llamar con el nombre {name}',
    'validation.mcp_token_price':
      'Un endpoint MCP se cobra por llamada a herramienta: sus precios por millón de tokens deben ser 0',
    'validation.tool_prices_not_mcp':
      'Solo un endpoint MCP tiene herramientas a las que poner precio una a una',
    'validation.model_id_format': 'Un id de modelo solo contiene caracteres visibles (128 como máximo)',
    'registry.route_name_taken': 'Este nombre de ruta ya está en uso',
    'registry.created': 'Endpoint creado',
    'registry.updated': 'Endpoint guardado',
    'registry.deleted': 'Endpoints eliminados',
  },
});
