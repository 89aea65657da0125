import { describe, expect, it } from 'vitest';
import { looksNugetProject } from './detect.js';
import { parseNugetProject } from './parse.js';

const CSPROJ = `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
    <PackageReference Include="Serilog" Version="4.0.0" />
  </ItemGroup>
  <ItemGroup Condition="'$(Configuration)' == 'Debug'">
    <PackageReference Include="xunit" Version="2.9.0" />
    <PackageReference Version="1.0.0" />
  </ItemGroup>
</Project>`;

const PACKAGES_CONFIG = `<?xml version="1.0" encoding="utf-8"?>
<packages>
  <package id="EntityFramework" version="6.4.4" targetFramework="net48" />
  <package id="jQuery" version="3.7.1" targetFramework="net48" />
</packages>`;

describe('NuGet project files', () => {
  it('names each PackageReference of an SDK-style project, lower-cased as nuget.org compares ids', () => {
    const r = parseNugetProject(CSPROJ);
    expect(r.format).toBe('nuget-project');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id, x.input])).toEqual([
      ['nuget', 'newtonsoft.json', 'Newtonsoft.Json 13.0.3'],
      ['nuget', 'serilog', 'Serilog 4.0.0'],
      ['nuget', 'xunit', 'xunit 2.9.0'],
    ]);
    expect(r.unresolved.map((u) => [u.input, u.reason])).toEqual([['? 1.0.0', 'it names no package id']]);
  });

  it('reads attribute values as XML means them', () => {
    const r = parseNugetProject(`<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>
      <PackageReference Include="Newtonsoft&#46;Json" Version="13.0.3" />
      <PackageReference Include="a&amp;b" Version="1.0" />
    </ItemGroup></Project>`);
    expect(r.references.map((x) => x.ref.id)).toEqual(['newtonsoft.json']);
    expect(r.unresolved.map((u) => u.input)).toEqual(['a&b 1.0']);
  });

  it('locates each reference by its path, and a deep one by the end of it', () => {
    expect(parseNugetProject(CSPROJ).references.map((x) => x.location)).toEqual([
      'Project.ItemGroup[0].PackageReference[0]',
      'Project.ItemGroup[0].PackageReference[1]',
      'Project.ItemGroup[1].PackageReference[0]',
    ]);
    // 62 levels of 200-character names: a path of 12 KB, which every one of 30,000 references
    // once kept alive (380 MB). A location is now at most 200 characters and an ellipsis.
    const names = Array.from({ length: 62 }, (_, i) => `n${i}`.padEnd(200, 'x'));
    const deep = `<Project>${names.map((n) => `<${n}>`).join('')}${'<PackageReference Include="p"/>'.repeat(3)}${names
      .reverse()
      .map((n) => `</${n}>`)
      .join('')}</Project>`;
    const locations = parseNugetProject(deep).references.map((x) => x.location);
    expect(locations).toHaveLength(3);
    for (const [i, location] of locations.entries()) {
      expect(location).toMatch(new RegExp(`^….{180}\\.PackageReference\\[${i}\\]$`));
      expect(location.length).toBe(201);
    }
  });

  it('names each package of a packages.config', () => {
    expect(parseNugetProject(PACKAGES_CONFIG).references.map((x) => x.ref.id)).toEqual(['entityframework', 'jquery']);
  });

  it('is recognised by its package elements, and nothing else is', () => {
    expect(looksNugetProject(CSPROJ)).toBe(true);
    expect(looksNugetProject(PACKAGES_CONFIG)).toBe(true);
    expect(looksNugetProject('<project><modelVersion>4.0.0</modelVersion></project>')).toBe(false);
  });
});

describe('parseNugetProject: place in the tree', () => {
  it('every package is direct, PrivateAssets or not (it does not say the package is for development only)', () => {
    const r = parseNugetProject(
      '<Project><ItemGroup><PackageReference Include="Newtonsoft.Json" Version="13.0.3" /><PackageReference Include="Microsoft.SourceLink.GitHub" Version="8.0.0" PrivateAssets="all" /></ItemGroup></Project>',
    );
    expect(r.references.map((x) => x.tree)).toEqual([
      { scope: 'direct', via: [] },
      { scope: 'direct', via: [] },
    ]);
  });
});
