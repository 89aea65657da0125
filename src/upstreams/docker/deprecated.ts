/**
 * Official images Docker has deprecated (their Hub pages say so in prose, which no API
 * exposes, research §5.3). Kept by hand: image → what the deprecation notice says.
 */
export const DEPRECATED_IMAGES: Readonly<Record<string, string>> = {
  'library/openjdk': 'deprecated since July 2022; use eclipse-temurin, amazoncorretto or another OpenJDK build',
  'library/java': 'deprecated in favour of openjdk (itself deprecated since 2022)',
  'library/adoptopenjdk': 'deprecated in favour of eclipse-temurin',
  'library/centos': 'deprecated: CentOS Linux reached end of life',
  'library/iojs': 'deprecated: io.js merged back into Node.js',
  'library/django': 'deprecated in favour of the python image',
  'library/rails': 'deprecated in favour of the ruby image',
  'library/celery': 'deprecated in favour of the python image',
  'library/jenkins': 'deprecated in favour of jenkins/jenkins',
  'library/owncloud': 'deprecated in favour of owncloud/server',
  'library/piwik': 'deprecated: renamed matomo',
  'library/sentry': 'deprecated in favour of getsentry/self-hosted',
};
