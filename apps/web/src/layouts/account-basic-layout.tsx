import { AccountFrame } from '@/layouts/account-layout';

/** The reduced account layout: only profile, password and 2FA in the sub-navigation. */
export default function AccountBasicLayout() {
  return <AccountFrame variant="basic" />;
}
