import type { ReactNode } from 'react';
import Gavel from '@mui/icons-material/Gavel';
import Info from '@mui/icons-material/Info';
import Login from '@mui/icons-material/Login';
import Mail from '@mui/icons-material/Mail';
import Person from '@mui/icons-material/Person';
import PersonAdd from '@mui/icons-material/PersonAdd';
import PrivacyTip from '@mui/icons-material/PrivacyTip';
import QuestionAnswer from '@mui/icons-material/QuestionAnswer';

/** An entry of the side drawer: a route, a static page opened in a new tab, or an action. */
export type NavItem =
  | { label: string; icon: ReactNode; to: string }
  | { label: string; icon: ReactNode; href: string }
  | { label: string; icon: ReactNode; action: 'contact' };

export const HELP_ITEMS: NavItem[] = [
  { label: 'Contact', icon: <Mail />, action: 'contact' },
  { label: 'Privacy', icon: <PrivacyTip />, href: 'privacy.html' },
  { label: 'Terms', icon: <Gavel />, href: 'terms.html' },
  { label: 'FAQ', icon: <QuestionAnswer />, to: '/faq' },
  { label: 'About', icon: <Info />, to: '/about' },
];

export const GUEST_LINKS: NavItem[] = [
  { label: 'Sign Up', icon: <PersonAdd />, to: '/register' },
  { label: 'Login', icon: <Login />, to: '/login' },
];

export const MEMBER_LINKS: NavItem[] = [{ label: 'Account', icon: <Person />, to: '/account' }];
