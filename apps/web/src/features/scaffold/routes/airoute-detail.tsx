import { ScaffoldDetailPage } from '../scaffold-detail-page';
import { SCAFFOLD_KINDS } from '../scaffold-kinds';

export default function AirouteDetailPage() {
  return <ScaffoldDetailPage kind={SCAFFOLD_KINDS.airoute} />;
}
