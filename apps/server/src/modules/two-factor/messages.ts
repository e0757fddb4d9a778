import { registerMessages } from '../../i18n';

/** Two-factor set-up and the OTP step of sign-in, en and es. */
registerMessages({
  en: {
    'validation.code_required': 'Please enter the code',
    'validation.code_invalid': 'Please enter the 6-digit code or your backup code',
    'error.otp_invalid': 'The code is incorrect or has already been used',
    'error.two_factor_not_pending': 'Turn two-factor authentication on first, then enter the code',
    'twofactor.scan': 'Scan the QR code with your authenticator app, then enter the code it shows',
    'twofactor.enabled':
      'Two-factor authentication is on. Keep your backup code somewhere safe: it is shown only once.',
    'twofactor.disabled': 'Two-factor authentication is off',
  },
  es: {
    'validation.code_required': 'Introduce el código',
    'validation.code_invalid': 'Introduce el código de 6 dígitos o tu código de respaldo',
    'error.otp_invalid': 'El código no es correcto o ya se ha usado',
    'error.two_factor_not_pending':
      'Activa primero la autenticación en dos pasos y luego introduce el código',
    'twofactor.scan':
      'Escanea el código QR con tu aplicación de autenticación y luego introduce el código que muestra',
    'twofactor.enabled':
      'La autenticación en dos pasos está activada. Guarda tu código de respaldo en un lugar seguro: solo se muestra una vez.',
    'twofactor.disabled': 'La autenticación en dos pasos está desactivada',
  },
});
