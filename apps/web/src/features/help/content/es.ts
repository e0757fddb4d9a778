import type { THelpSection } from './types';

/** La página de ayuda en español. `{origin}` se sustituye por la dirección de este servidor. */
export const HELP_ES: THelpSection[] = [
  {
    id: 'getting-started',
    title: 'Primeros pasos',
    blocks: [
      {
        p: 'AIR pone cada endpoint de IA que gestionas (agentes, modelos, bases de conocimiento) detrás de un único gateway compatible con OpenAI. Con tres pasos pasas del registro a tu primera llamada.',
      },
      {
        list: [
          'Regístrate: crea tu cuenta en /signup con tu nombre, correo y contraseña (o un proveedor social). Confirma el correo con el enlace que te envía AIR.',
          'Obtén una clave de API: en Cuenta → Claves de API, crea una clave con el ámbito gateway.invoke. La clave completa (air_ seguido de 40 caracteres) se muestra al crearla; los miembros que pueden gestionar claves pueden volver a mostrarla desde la lista, y cada vez queda registrada en el registro de actividad.',
          'Registra un endpoint: en el registro de endpoints de IA, añade un endpoint con un nombre de ruta como acme/support-bot y la URL que responde chat completions de OpenAI. O elige un endpoint compartido en el marketplace.',
          'Haz la primera llamada: envía tus mensajes al gateway con la clave y el nombre de ruta. El panel muestra la misma llamada en cURL, NodeJS y Python con tu clave, y cada endpoint tiene una pestaña Pruébalo.',
        ],
      },
      {
        code: 'curl {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" \\\n  -H "Content-Type: application/json" \\\n  -d \'{"model": "acme/support-bot", "messages": [{"role": "user", "content": "Hola"}]}\'',
      },
    ],
  },
  {
    id: 'gateway',
    title: 'Referencia del gateway',
    blocks: [
      {
        p: 'El gateway habla el protocolo de chat completions de OpenAI, así que los SDK oficiales de OpenAI funcionan con la URL base {origin}/api/v1 y una clave de AIR como clave de API.',
      },
      {
        table: {
          head: ['Ruta', 'Qué hace'],
          rows: [
            [
              'POST /api/v1/chat/completions',
              'Un chat completion, reenviado a la ruta indicada en la petición.',
            ],
            ['POST /api/v1', 'La misma llamada en la ruta corta.'],
            ['GET /api/v1/models', 'Las rutas que tu clave puede llamar, en el formato de lista de OpenAI.'],
          ],
        },
      },
      {
        table: {
          head: ['Cabecera', 'Significado'],
          rows: [
            [
              'Authorization: Bearer air_…',
              'Tu clave de API de AIR (o envíala como x-api-key: air_…). Nunca se envía al proveedor.',
            ],
            ['x-route-name', 'La ruta a llamar. Si falta, el "model" del cuerpo indica la ruta.'],
            [
              'Content-Type: application/json',
              'El cuerpo es la petición de OpenAI, reenviada sin cambios (salvo "model" cuando el endpoint fija un modelo del proveedor).',
            ],
            ['x-request-id (respuesta)', 'El id de esta llamada, en cada respuesta: cítalo a soporte.'],
            ['Retry-After (respuesta)', 'Segundos de espera tras un 429 rate_limit_exceeded.'],
            [
              'x-air-route, x-air-attempts (respuesta)',
              'La ruta que respondió (la alternativa, si respondió una) y las llamadas hechas a los destinos (0 desde la caché).',
            ],
            ['x-air-cache (respuesta)', 'hit o miss, en las rutas que guardan respuestas en caché.'],
          ],
        },
      },
      {
        p: 'Streaming: envía "stream": true y la respuesta llega como eventos del servidor (text/event-stream), fragmento a fragmento según la escribe el proveedor; AIR nunca retiene un stream. Cerrar la conexión también detiene la llamada al proveedor.',
      },
      {
        code: 'curl -N {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" -H "x-route-name: acme/support-bot" \\\n  -H "Content-Type: application/json" \\\n  -d \'{"stream": true, "messages": [{"role": "user", "content": "Cuenta hasta cinco"}]}\'',
      },
      {
        p: 'Los errores llegan con la forma de OpenAI { "error": { "message", "type", "code" } }. El estado y el cuerpo de error del propio proveedor pasan sin cambios.',
      },
      {
        table: {
          head: ['Estado y código', 'Qué pasó'],
          rows: [
            [
              '400 invalid_request / missing_route',
              'El cuerpo no es un objeto JSON, o no se indica ruta (cabecera x-route-name o "model").',
            ],
            [
              '401 invalid_api_key',
              'La clave falta, no existe, está revocada o ha caducado (el mensaje dice cuándo caducó).',
            ],
            ['403 insufficient_scope', 'La clave no tiene el ámbito gateway.invoke.'],
            [
              '404 route_not_found',
              'No hay una ruta activa con ese nombre que tu cuenta pueda llamar (la ruta privada de otra cuenta responde igual).',
            ],
            ['402 quota_exceeded', 'Las llamadas de tu plan para este mes se han agotado.'],
            ['413 payload_too_large', 'El cuerpo supera 10 MiB.'],
            [
              '429 rate_limit_exceeded',
              'Demasiadas llamadas con esta clave en este minuto; reintenta tras los segundos de Retry-After.',
            ],
            [
              '429 key_quota_exceeded',
              'Esta clave ha agotado su propio límite mensual de llamadas (el mensaje indica el límite).',
            ],
            ['502 upstream_unreachable', 'No se pudo conectar con la URL del endpoint.'],
            [
              '503 upstreams_unavailable',
              'Todos los destinos de la ruta fallan y se saltan durante su pausa; reintenta tras los segundos de Retry-After.',
            ],
            ['504 upstream_timeout', 'El endpoint no respondió a tiempo (su tiempo límite, o 120 s).'],
          ],
        },
      },
      {
        p: 'Límites: cada plan fija una cuota mensual de llamadas por cuenta y un límite de llamadas por minuto por clave (Free: 1.000 llamadas al mes, 60 por minuto). El propietario recibe un correo al 80 % y al 100 % de la cuota, y la consola muestra un aviso con el enlace para mejorar el plan.',
      },
      {
        p: 'Medición del uso: cada llamada reenviada se registra con su hora, ruta, clave, estado, latencia, si fue en streaming, y los tokens de entrada y salida cuando la respuesta informa el uso; los tokens que el gateway tuvo que estimar se marcan con ≈. No se guarda el contenido de peticiones ni respuestas. Cuenta → Uso lo muestra por día, endpoint y clave, con exportación CSV y un registro de peticiones de los últimos 30 días.',
      },
    ],
  },
  {
    id: 'routing',
    title: 'Enrutado',
    blocks: [
      {
        p: 'Un endpoint puede repartir sus llamadas entre varios destinos, reintentar los fallos, recurrir a otras rutas, saltarse un destino que sigue fallando y responder llamadas repetidas desde una caché. Se configura en la pestaña Ajustes del endpoint, en Enrutado y resiliencia; un endpoint sin estos ajustes reenvía cada llamada a su única URL.',
      },
      {
        table: {
          head: ['Ajuste', 'Qué hace'],
          rows: [
            [
              'Destinos (1 a 8, peso 1 a 100)',
              'Cada llamada elige uno al azar en proporción a su peso, entre los que tienen el circuito cerrado. El primero es la URL del endpoint.',
            ],
            [
              'Reintentos (0 a 5), espera (0 a 10.000 ms)',
              'Un fallo antes de que te llegue el primer byte (conexión rechazada o cortada, tiempo agotado, o una respuesta 429, 500, 502, 503, 504, o el 529 overloaded de Anthropic) se vuelve a intentar, en otro destino si lo hay, tras la espera, que se duplica cada vez con un margen aleatorio, o el Retry-After del destino si es menor de 10 s. Las demás respuestas (400, 401, 404…) llegan enseguida; nada se reintenta una vez empezada la respuesta.',
            ],
            [
              'Rutas alternativas (hasta 3)',
              'Se prueban en orden cuando se agotan los intentos de la ruta, solo si tu clave puede llamarlas en ese momento. El "model" del cuerpo pasa a ser la ruta alternativa.',
            ],
            [
              'Cortacircuitos (1 a 100 fallos, 1 a 3.600 s)',
              'Un destino que falla esas veces seguidas se salta durante la pausa; después una llamada lo prueba, y si sale bien vuelve a usarse. Con varios servidores AIR (REDIS_URL) lo abren y cierran a la vez.',
            ],
            [
              'Guardar respuestas durante (0 a 86.400 s)',
              'Una respuesta 200 sin streaming se guarda ese tiempo para tu cuenta, ruta y cuerpo de la petición; la misma llamada se responde sin llamar al destino. Cuenta para tu cuota.',
            ],
          ],
        },
      },
      {
        p: 'Ejemplo: acme/chat funciona con dos proveedores y una alternativa. Sus destinos son https://api.provider-a.example/v1/chat/completions (peso 3) y https://api.provider-b.example/v1/chat/completions (peso 1), con 2 reintentos, una espera de 250 ms, el cortacircuitos en 5 fallos y 30 s, y la ruta alternativa acme/chat-small. Tres de cada cuatro llamadas van al proveedor A. Cuando el proveedor A rechaza conexiones, una llamada que lo eligió se reintenta en el proveedor B tras la espera, así que recibes respuesta; tras 5 fallos seguidos el proveedor A se salta durante 30 s y después una llamada lo prueba. Si fallan los dos, responde acme/chat-small, y x-air-route te lo indica.',
      },
      {
        code: 'curl -i {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" -H "Content-Type: application/json" \\\n  -d \'{"model": "acme/chat", "messages": [{"role": "user", "content": "Hola"}]}\'\n\nHTTP/1.1 200 OK\nx-air-route: acme/chat\nx-air-attempts: 2',
      },
      {
        p: 'La vista general del endpoint muestra el estado de cada destino (cerrado, abierto, probando), su último fallo y las llamadas y fallos de la última hora; el registro de peticiones en Cuenta → Uso muestra los intentos y aciertos de caché de cada llamada, y una llamada que respondió un fallback, bajo su ruta, con «se pidió» la ruta que llamaste. También puedes limitar las claves: al crear o editar una clave, fija una caducidad, las únicas rutas que puede llamar (las demás responden 404 route_not_found y GET /api/v1/models solo lista esas) y un límite mensual de llamadas (superado, 429 key_quota_exceeded).',
      },
    ],
  },
  {
    id: 'providers',
    title: 'Proveedores',
    blocks: [
      {
        p: 'Cada destino de un endpoint tiene un formato: la API que habla. OpenAI (por defecto) recibe tus chat completions tal como las envías; Anthropic (la Messages API) y Gemini (generateContent) las reciben traducidas, y sus respuestas vuelven como chat completions, en streaming o no, con llamadas a herramientas, motivos de fin y uso. Elige el formato de cada destino en la pestaña Ajustes del endpoint, en Enrutado y resiliencia, y pon la clave del proveedor en las cabeceras del destino del endpoint (se guardan cifradas). Una ruta puede mezclar formatos: una llamada que falla en un destino de Anthropic se reintenta en uno de OpenAI, y cada destino recibe solo su propia clave.',
      },
      {
        table: {
          head: ['Formato', 'URL del destino y cabeceras'],
          rows: [
            ['OpenAI', 'https://api.openai.com/v1/chat/completions, cabecera Authorization: Bearer sk-…'],
            [
              'Anthropic',
              'https://api.anthropic.com/v1/messages, cabecera x-api-key: sk-ant-… (se añade anthropic-version 2023-06-01 si no pones ninguna). max_tokens es 4096 si la llamada no lo fija.',
            ],
            [
              'Gemini',
              'https://generativelanguage.googleapis.com/v1beta (el modelo sale de la llamada o del modelo de destino del endpoint), cabecera x-goog-api-key: AIza…. Las URL de imágenes deben terminar en .png, .jpg, .jpeg, .webp, .gif, .heic o .heif, o ser URL data.',
            ],
          ],
        },
      },
      {
        p: 'El uso se lee de la respuesta del proveedor y se mide y cobra exactamente como con un destino de OpenAI; las lecturas y escrituras de caché de Anthropic cuentan en prompt_tokens y aparecen en prompt_tokens_details. Un error del proveedor vuelve con su estado y su mensaje en la forma de error de OpenAI. Un campo que un proveedor no admite (en Anthropic: n mayor que 1, logprobs, logit_bias, seed o las penalizaciones; en ambos: partes de audio y archivos) se rechaza con 400 unsupported_parameter, que lo nombra, antes de enviar nada. Solo se traducen las chat completions: una ruta con un destino de Anthropic o Gemini sirve solo /api/v1/chat/completions y /api/v1/messages.',
      },
      {
        p: 'Los clientes escritos para Anthropic (el SDK de Anthropic, Claude Code con ANTHROPIC_BASE_URL) llaman a {origin}/api/v1/messages con tu clave de AIR como clave de API y la ruta como modelo: pon como URL base {origin}/api. A un destino de Anthropic la llamada va tal cual; a uno de OpenAI o Gemini se traduce, y la respuesta, sus eventos y sus errores vuelven con la forma de Anthropic, también un cuerpo de más de 10 MiB (413 request_too_large). Las cabeceras anthropic-version y anthropic-beta son opcionales: un destino de Anthropic recibe las tuyas en lugar de las del endpoint, los demás formatos ninguna. /api/v1/messages/count_tokens cuenta el prompt de una petición con el tokenizador de AIR (una estimación; no se envía nada al destino). El registro de peticiones en Cuenta → Uso muestra el formato de cada llamada, cliente → destino (OpenAI → Anthropic, Anthropic → OpenAI …).',
      },
      {
        p: 'Ejemplo, Anthropic: registra acme/claude con el destino https://api.anthropic.com/v1/messages, formato Anthropic, modelo de destino claude-sonnet-4-5 y la cabecera x-api-key. Ejemplo, Gemini: acme/gemini con https://generativelanguage.googleapis.com/v1beta, formato Gemini, modelo de destino gemini-2.5-flash y la cabecera x-goog-api-key. Las dos se llaman como cualquier ruta:',
      },
      {
        code: 'curl {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" -H "Content-Type: application/json" \\\n  -d \'{"model": "acme/claude", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}\'\n\n{"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": "Hello!"}, "finish_reason": "stop"}],\n "usage": {"prompt_tokens": 11, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 0}}}',
      },
    ],
  },
  {
    id: 'mcp',
    title: 'MCP',
    blocks: [
      {
        p: 'Un endpoint puede ser un servidor Model Context Protocol: al registrarlo, elige el protocolo MCP y pon como URL la dirección Streamable HTTP del servidor (por ejemplo https://docs.acme.example/mcp). Las credenciales propias del servidor van en las cabeceras del upstream del endpoint: se guardan cifradas y se le envían en cada petición; tus agentes nunca las ven. Su Resumen lista las herramientas del servidor (Leer de nuevo vuelve a preguntarle). Un endpoint MCP solo tiene precio por llamada a herramienta y no es un modelo: /api/v1/models no lo lista y allí responde 404 unsupported_endpoint.',
      },
      {
        p: 'Los agentes lo usan en /api/mcp/{provider}/{name} con una clave de AIR con el permiso gateway.invoke, igual que una ruta de chat: una ruta privada de otra cuenta, o una fuera de las rutas de la clave, responde 404 route_not_found. Con el SDK oficial, cambia la URL y añade la cabecera:',
      },
      {
        code: "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nimport { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n\nconst transport = new StreamableHTTPClientTransport(new URL('{origin}/api/mcp/acme/docs'), {\n  requestInit: { headers: { Authorization: 'Bearer air_…' } },\n});\nconst client = new Client({ name: 'my-agent', version: '1.0.0' });\nawait client.connect(transport);\nconst { tools } = await client.listTools();\nconst answer = await client.callTool({ name: 'search', arguments: { query: 'tides' } });",
      },
      {
        table: {
          head: ['Mensaje', 'Cómo lo cuenta AIR'],
          rows: [
            [
              'tools/call',
              'Una llamada: cuenta para el límite por minuto, el tope mensual y el presupuesto de la clave, la cuota del plan y el límite de gasto, se cobra al precio por llamada del endpoint y se mide con su herramienta, estado, latencia y tamaño. Un resultado con isError es una llamada entregada; un error JSON-RPC (no se ejecutó ninguna herramienta) es gratis.',
            ],
            [
              'initialize, tools/list, ping, notificaciones, el stream GET, DELETE',
              'Gratis y sin medir; solo cuentan para el límite por minuto de la clave.',
            ],
          ],
        },
      },
      {
        p: 'Las sesiones funcionan aunque tus peticiones lleguen a distintas instancias de AIR: el Mcp-Session-Id que entrega AIR lleva dentro, sellada, la sesión del propio servidor, así que cualquier instancia la continúa. Una sesión pertenece a la clave que la abrió; una clave revocada se rechaza en su siguiente petición. DELETE termina también la sesión en el servidor.',
      },
      {
        p: 'Una dirección para todas las herramientas: /api/mcp es un servidor MCP propio de AIR cuyas herramientas son las de todas las rutas MCP que alcanza tu clave, así que un agente se configura una sola vez. Si la clave no tiene lista de rutas son los endpoints MCP de tu cuenta; si la tiene, las rutas que nombra (también las compartidas de otras cuentas). Cada herramienta se llama como su ruta y su propio nombre: la / de la ruta pasa a ser ., luego __ y luego la herramienta, así que search de acme/docs es acme.docs__search (un . de la ruta se escribe D, un _ es U y un : es C: acme/gpt-4.1 es acme.gpt-4D1__…). La llamada va al servidor de esa ruta con el nombre propio de la herramienta y se mide, se limita y se cobra en esa ruta igual que en /api/mcp/{provider}/{name}; un nombre que no es de ninguna herramienta que alcance la clave es una herramienta desconocida (error JSON-RPC -32602). /api/mcp no guarda sesión, así que responde cualquier instancia. Un cliente que abre su stream de eventos (GET /api/mcp) recibe notifications/tools/list_changed cada vez que cambia un endpoint, y vuelve a listar las herramientas. Las dos direcciones responden a las comprobaciones previas (preflight) de los navegadores; una página web solo puede usar una clave si la clave lista su origen.',
      },
      {
        p: 'Elegir herramientas: en el Resumen de un endpoint MCP cada herramienta tiene un interruptor; una herramienta desactivada no se lista a nadie y una llamada a ella se rechaza como herramienta desconocida. Una clave puede limitarse a algunas herramientas (Herramientas MCP en el formulario de la clave: una ruta y una herramienta por línea, por ejemplo acme/docs search) y a las de solo lectura (las que su servidor marca con readOnlyHint). Las herramientas fuera de lo elegido para una clave no se listan ni se pueden llamar con ella, ni en /api/mcp/{provider}/{name} ni en /api/mcp.',
      },
    ],
  },
  {
    id: 'marketplace',
    title: 'Marketplace',
    blocks: [
      {
        p: 'El marketplace lista cada endpoint que su propietario dejó activo, compartido y público. Abre Detalles para leer su descripción y probarlo; llámalo con tu propia clave y tu propia cuota, igual que tus rutas.',
      },
      {
        p: 'Para compartir los tuyos, activa Compartido y desactiva Privado en la vista general del endpoint. Su URL y su configuración del proveedor quedan ocultas para otras cuentas. Cuenta → Uso muestra qué organizaciones llamaron a tus endpoints compartidos, por endpoint y por día.',
      },
      {
        p: 'Elegir entre endpoints: cada uno muestra, en los últimos 7 o 30 días y solo con llamadas de otras cuentas, sus llamadas, tasa de éxito, disponibilidad (la parte de los minutos con llamadas que tuvieron un éxito y ningún tres fallos seguidos), latencia mediana y del percentil 95, tiempo hasta el primer token de las respuestas en streaming y tokens por segundo. Ordena el catálogo por cualquiera de ellas o por precio, y quédate solo con los endpoints por encima de una disponibilidad o por debajo de una latencia p95. El nombre de un proveedor abre su página: sus endpoints, sus cifras combinadas y el perfil que su propietario escribe en Cuenta → Perfil.',
      },
      {
        p: 'Un modelo, varios proveedores: el propietario puede indicar qué modelo sirve un endpoint (Configuración → Modelo servido, p. ej. meta-llama/llama-3.1-70b-instruct). Pon ese id de modelo en "model" en lugar de un nombre de ruta y AIR elige entre los endpoints compartidos que lo sirven y que tu clave puede llamar: por defecto las llamadas se reparten entre ellos según el precio (un proveedor a mitad de precio recibe cuatro veces más llamadas), o añade "provider": { "sort": "price" } (siempre el más barato; los de igual precio se reparten las llamadas) o "latency", "throughput", "reliability", "only" o "ignore" (nombres de proveedor, la parte del nombre de ruta antes de la barra), "max_price" ({ "prompt", "completion", "request" } por millón de tokens o por llamada) y "allow_fallbacks" (false: solo el primer proveedor). Si un proveedor falla antes de responder, se llama al siguiente; x-air-route indica el endpoint que respondió, y la llamada se mide y se cobra a su precio. GET /api/v1/models lista cada id de modelo con su número de proveedores y su rango de precios.',
      },
    ],
  },
  {
    id: 'accounts',
    title: 'Cuentas y roles',
    blocks: [
      {
        p: 'Una cuenta es tu organización: sus endpoints, claves, plan y usuarios. Un usuario puede pertenecer a varias cuentas y cambiar entre ellas desde el menú de usuario.',
      },
      {
        table: {
          head: ['Rol', 'Puede'],
          rows: [
            ['Propietario', 'Todo, incluida la facturación y cerrar la cuenta.'],
            ['Administrador', 'Invitar, editar y quitar usuarios, además de lo que puede un desarrollador.'],
            ['Desarrollador', 'Crear y gestionar claves de API y endpoints.'],
            ['Usuario', 'Usar la consola: panel, registro, marketplace, uso y su propio perfil.'],
          ],
        },
      },
      {
        p: 'El inicio de sesión en dos pasos, tu contraseña y los correos de notificación están en Cuenta. El personal de soporte solo puede entrar como tú para revisar un problema si activas “Permitir que el soporte acceda a mi cuenta” (support_enabled) en tu perfil.',
      },
    ],
  },
  {
    id: 'billing',
    title: 'Facturación',
    blocks: [
      {
        p: 'Los planes fijan la cuota mensual y el límite por minuto. Free no necesita tarjeta; los planes de pago se cobran cada mes a la tarjeta de Cuenta → Facturación, y el plan Team por asiento. Cada cobro genera una factura que puedes descargar en PDF.',
      },
      {
        p: 'Mejorar el plan tiene efecto al momento, con la nueva cuota. Si falla una renovación, el plan espera a una tarjeta válida; las llamadas mantienen su cuota actual hasta que acaba el periodo.',
      },
      {
        p: 'Vender en el marketplace: lo que pagan los clientes por tus endpoints con precio está en Cuenta → Ganancias, y Cuenta → Pagos muestra tu saldo (cobrado a los clientes, aún no pagado), lo acumulado y aún sin facturar, lo pendiente y lo pagado. Al cierre de cada mes, un saldo de al menos el mínimo (10,00 salvo que la plataforma fije otro) se convierte en un pago con su extracto (PDF y CSV); uno menor espera al mes siguiente. Introduce en esa página la cuenta bancaria a la que van los pagos (un IBAN o un número de ruta y de cuenta de EE. UU.; solo se guardan los cuatro últimos dígitos) o, si la plataforma paga con Stripe, termina allí el alta en Stripe. Un reembolso o un contracargo de la factura de un cliente descuenta la parte correspondiente de tus ganancias.',
      },
    ],
  },
  {
    id: 'faq',
    title: 'Preguntas frecuentes',
    blocks: [
      {
        p: '¿AIR guarda mis prompts o respuestas? No. El gateway reenvía los bytes según llegan y solo registra metadatos (hora, ruta, clave, estado, latencia, tokens).',
      },
      {
        p: '¿Por qué recibo 404 route_not_found para una ruta que veo? La ruta debe estar activa y ser tuya o compartida y pública. Revisa la escritura: los nombres de ruta van en minúsculas.',
      },
      {
        p: '¿Por qué algunos tokens llevan ≈? El proveedor no informó el uso de esa llamada (habitual con streaming), así que el gateway los estimó.',
      },
      {
        p: '¿Cómo hago streaming con el SDK de OpenAI? Pasa stream: true a chat.completions.create con baseURL {origin}/api/v1; el SDK lee el stream de eventos que AIR deja pasar.',
      },
      {
        p: '¿Dónde está la referencia de la API? El enlace Docs de la navegación lateral abre la referencia OpenAPI de la API de la consola y del gateway.',
      },
    ],
  },
];
