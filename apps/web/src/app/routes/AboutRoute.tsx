import { AboutPage } from '../../features/about/components/AboutPage';
import { useUiState } from '../ui-state';

/** About composed with the shell's Contact Us dialog. */
export function AboutRoute() {
  const { openContact } = useUiState();
  return <AboutPage onContact={openContact} />;
}
