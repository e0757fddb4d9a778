import { PageHeading } from '@/components/layout/page-heading';

/** Placeholder until its feature lands: the layout and the title only, nothing that pretends to work. */
export default function NewitemtwoListPage() {
  return <PageHeading />;
}
