import { renderMail } from '../layout';
import { defineMailTemplate, param, type TMailParams } from '../template';

/**
 * To SUPPORT_EMAIL. Params: contact_name, contact_email (as typed in the form), message,
 * user_name, user_email, user_id, account_name, account_id, plan.
 */
function render(p: TMailParams) {
  return renderMail(`Support request from ${param(p, 'contact_name')} (${param(p, 'account_name')})`, {
    heading: `Support request from ${param(p, 'contact_name')}`,
    paragraphs: [
      param(p, 'message'),
      `Contact: ${param(p, 'contact_name')} <${param(p, 'contact_email')}>`,
      `User: ${param(p, 'user_name')} <${param(p, 'user_email')}> (${param(p, 'user_id')})`,
      `Account: ${param(p, 'account_name')} (${param(p, 'account_id')})`,
      `Plan: ${param(p, 'plan')}`,
    ],
    footer: 'Sent from the AIR help page. A copy went to the user.',
  });
}

export default defineMailTemplate({ en: render, es: render });
